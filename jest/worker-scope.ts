/** One jest worker's database and queue prefix: the run's, suffixed `_w<JEST_WORKER_ID>`. */
export function workerScope(run: { databaseUrl: string; queuePrefix: string }, worker: string | number): { databaseUrl: string; queuePrefix: string } {
  const url = new URL(run.databaseUrl);
  url.pathname = `${url.pathname}_w${worker}`;
  return { databaseUrl: url.toString(), queuePrefix: `${run.queuePrefix}_w${worker}` };
}
