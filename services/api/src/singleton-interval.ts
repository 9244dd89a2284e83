import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';

export interface SingletonInterval<R> {
  stop(): void;
  /** One round now, if no other instance holds the lock; null when another one does. */
  runOnce(): Promise<R | null>;
}

/**
 * Runs `run` now and then every `intervalMs` on one API instance at a time: a round starts only
 * with a Redis lock (`lockKey`, held for the interval), so several instances do not repeat the
 * work. A failed round is logged with `failure` and retried the next round.
 */
export function startSingletonInterval<R>(opts: {
  redis: Redis;
  lockKey: string;
  intervalMs: number;
  logger: Logger;
  failure: string;
  run: () => Promise<R>;
}): SingletonInterval<R> {
  const runOnce = async (): Promise<R | null> => {
    const got = await opts.redis.set(opts.lockKey, String(process.pid), 'PX', Math.max(opts.intervalMs - 1000, 5000), 'NX');
    if (got !== 'OK') return null;
    return opts.run();
  };
  const tick = (): void => {
    runOnce().catch((err: unknown) => opts.logger.warn({ err }, opts.failure));
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
