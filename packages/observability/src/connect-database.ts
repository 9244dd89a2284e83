import { ensureDatabaseExists, runMigrations, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';

export interface RetryOptions {
  logger: Logger;
  /** Aborted by a shutdown signal: stop retrying and reject. */
  signal?: AbortSignal;
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** An error that waiting will not cure (a wrong key): rethrown at once instead of retried. */
  isFinal?: (err: unknown) => boolean;
}

/**
 * Runs `attempt` until it succeeds, waiting longer after each failure (1 s doubling up to 10 s).
 * A process started before its database or Redis (a fresh `docker compose up`, a Postgres
 * failover) waits for them instead of exiting and being restarted in a loop.
 */
export async function retryUntilSuccess<T>(what: string, attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
  let delay = opts.firstDelayMs ?? 1000;
  for (let tries = 1; ; tries += 1) {
    opts.signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      opts.signal?.throwIfAborted();
      if (opts.isFinal?.(err)) throw err;
      // The message only: a stack per retry would bury the one line that matters.
      opts.logger.warn(
        { error: err instanceof Error ? err.message : String(err), tries, retry_in_ms: delay },
        `${what} unavailable; retrying`,
      );
      await sleep(delay, opts.signal);
      delay = Math.min(delay * 2, opts.maxDelayMs ?? 10_000);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', done);
      clearTimeout(timer);
      if (signal?.aborted) reject(signal.reason);
      else resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * What every process does at start, on a data source created beforehand (its readiness probe
 * already points at it): create the database if missing, open the pool, run pending migrations,
 * retrying until Postgres answers.
 */
export async function connectDatabase(dataSource: DataSource, url: string, opts: RetryOptions): Promise<void> {
  await retryUntilSuccess(
    'database',
    async () => {
      await ensureDatabaseExists(url);
      if (!dataSource.isInitialized) await dataSource.initialize();
      await runMigrations(dataSource, url);
    },
    opts,
  );
  opts.logger.info('database connected and migrated');
}
