import { randomBytes } from 'node:crypto';
import { openDatabase } from '@uptime/db';
import { createDatabaseFrom } from '@uptime/testing';
import { workerScope } from './worker-scope';

/**
 * Gives this run its own databases and queue prefix, so concurrent runs on one Postgres and one
 * Redis never see each other's data. Children (jest workers, spawned services) inherit the env.
 *
 * The migrations run once, on a template database (TEST_TEMPLATE_DATABASE). Each jest worker has
 * a copy of it and a queue prefix of its own (jest/worker-env.ts), so files running at the same
 * time in two workers never share tables or keys; any other database a test makes for itself
 * (the capacity harness's) is a copy of the template too.
 */
export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const template = new URL(base);
  template.pathname = `/uptime_test_${runId}_template`;
  const migrated = await openDatabase(template.toString(), { poolSize: 1 });
  await migrated.destroy();
  base.pathname = `/uptime_test_${runId}`;
  const run = { databaseUrl: base.toString(), queuePrefix: `uptime_test_${runId}` };
  for (let worker = 1; worker <= Math.max(1, globalConfig.maxWorkers); worker += 1) {
    await createDatabaseFrom(template.pathname.slice(1), workerScope(run, worker).databaseUrl);
  }
  process.env.TEST_TEMPLATE_DATABASE = template.pathname.slice(1);
  process.env.TEST_RUN_DATABASE_URL = run.databaseUrl;
  process.env.TEST_RUN_QUEUE_PREFIX = run.queuePrefix;
  // Worker 1's, for whatever reads the environment jest itself was started with.
  process.env.DATABASE_URL = workerScope(run, 1).databaseUrl;
  process.env.QUEUE_PREFIX = workerScope(run, 1).queuePrefix;
  process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  process.env.NODE_ENV = 'test';
}
