import { randomBytes } from 'node:crypto';
import { openDatabase } from '@uptime/db';

/**
 * Gives this run its own database and queue prefix, so concurrent runs on one Postgres and one
 * Redis never see each other's data. Children (jest workers, spawned services) inherit the env.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/uptime_test_${runId}`;
  process.env.DATABASE_URL = base.toString();
  process.env.QUEUE_PREFIX = `uptime_test_${runId}`;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.NODE_ENV = 'test';
  const dataSource = await openDatabase(process.env.DATABASE_URL, { poolSize: 1 });
  await dataSource.destroy();
}
