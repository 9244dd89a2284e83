import { randomBytes } from 'node:crypto';
import { openDatabase } from '@uptime/db';
import { createDatabaseFrom } from '@uptime/testing';

/**
 * Gives this run its own database and queue prefix, so concurrent runs on one Postgres and one
 * Redis never see each other's data. Children (jest workers, spawned services) inherit the env.
 *
 * The migrations run once, on a template database (TEST_TEMPLATE_DATABASE); the run's database,
 * and any other a test makes for itself (the capacity harness's), is a copy of it.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const template = new URL(base);
  template.pathname = `/uptime_test_${runId}_template`;
  const migrated = await openDatabase(template.toString(), { poolSize: 1 });
  await migrated.destroy();
  base.pathname = `/uptime_test_${runId}`;
  await createDatabaseFrom(template.pathname.slice(1), base.toString());
  process.env.TEST_TEMPLATE_DATABASE = template.pathname.slice(1);
  process.env.DATABASE_URL = base.toString();
  process.env.QUEUE_PREFIX = `uptime_test_${runId}`;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.NODE_ENV = 'test';
}
