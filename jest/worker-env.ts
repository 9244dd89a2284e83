import { workerScope } from './worker-scope';

/**
 * Each jest worker gets its own database and queue prefix (jest/global-setup.ts made them), so
 * test files running at the same time in two workers never empty each other's tables or Redis
 * keys. Runs before every test file, on that file's copy of process.env: a child process sees
 * these values when spawned with `env: { ...process.env }`, as every test's is; the worker's own
 * environment names worker 1's.
 */
const run = { databaseUrl: process.env.TEST_RUN_DATABASE_URL, queuePrefix: process.env.TEST_RUN_QUEUE_PREFIX };
if (run.databaseUrl && run.queuePrefix) {
  const scope = workerScope({ databaseUrl: run.databaseUrl, queuePrefix: run.queuePrefix }, process.env.JEST_WORKER_ID ?? '1');
  process.env.DATABASE_URL = scope.databaseUrl;
  process.env.QUEUE_PREFIX = scope.queuePrefix;
}
