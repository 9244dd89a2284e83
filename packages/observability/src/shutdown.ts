import type { Logger } from '@uptime/logger';

/**
 * How long a process may take to finish its work in flight after SIGTERM before it gives up on
 * it. Kubernetes' terminationGracePeriodSeconds (45) leaves room above it for closing pools.
 */
export const SHUTDOWN_GRACE_MS = 30_000;

export type StopOutcome = 'graceful' | 'forced';

/**
 * Runs `graceful()`; if it has not finished within `graceMs`, runs `force()` (which must be quick:
 * put work back, drop connections) and reports 'forced'. A failing `graceful()` is forced too.
 */
export async function stopWithin(
  graceMs: number,
  graceful: () => Promise<void>,
  force: () => Promise<void>,
  logger?: Logger,
): Promise<StopOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), graceMs);
  });
  try {
    const first = await Promise.race([graceful().then(() => 'done' as const), expired]);
    if (first === 'done') return 'graceful';
    logger?.warn({ grace_ms: graceMs }, 'work in flight did not finish in time; forcing');
  } catch (err) {
    logger?.error({ err }, 'graceful stop failed; forcing');
  } finally {
    clearTimeout(timer);
  }
  await force();
  return 'forced';
}

/**
 * Calls `stop` once on the first SIGTERM or SIGINT and exits with the code it returns (1 if it
 * throws). Later signals are ignored: under `pnpm start` the same SIGTERM arrives several times
 * (from the process group and relayed by pnpm and its shell), and must not cut the stop short.
 */
export function onShutdownSignal(logger: Logger, stop: (signal: NodeJS.Signals) => Promise<number>): void {
  let isStopping = false;
  const handle = (signal: NodeJS.Signals): void => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down');
    stop(signal).then(
      (code) => {
        logger.info({ exit_code: code }, 'stopped');
        process.exit(code);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}

/** What `closeRedis` needs of an ioredis connection. */
export interface ClosableRedis {
  readonly status: string;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/**
 * QUIT when connected (pending replies arrive first), else just drop it: QUIT on a connection
 * that is reconnecting to a Redis that is down would wait for Redis to come back.
 */
export async function closeRedis(redis: ClosableRedis): Promise<void> {
  if (redis.status === 'ready') await redis.quit();
  else redis.disconnect();
}
