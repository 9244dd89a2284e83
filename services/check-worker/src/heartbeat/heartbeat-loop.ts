import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import type { HeartbeatEngine } from './heartbeat-engine';

/** How often the deadlines are looked at: a heartbeat goes offline within this (and a batch's write) of due + grace. */
export const HEARTBEAT_TICK_MS = 250;
const LOCK_TTL_MS = 10_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;

/**
 * Drains the heartbeat deadlines (HeartbeatDeadlines) every HEARTBEAT_TICK_MS, one check-worker
 * at a time (a Redis lock): each round reads only the deadlines already passed, so its cost
 * follows the heartbeats going offline, not the number of heartbeats. Should two workers run a
 * round at once, the row lock of each monitor makes the second a no-op.
 */
export function startHeartbeatLoop(opts: { engine: HeartbeatEngine; redis: Redis; prefix: string; logger: Logger; tickMs?: number }): { stop(): Promise<void> } {
  const lockKey = `${opts.prefix}:heartbeat:drain-lock`;
  const owner = randomUUID();
  let running: Promise<void> | null = null;
  const round = async (): Promise<void> => {
    if ((await opts.redis.set(lockKey, owner, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return;
    try {
      // A full round means more are due: go on at once rather than a tick later.
      while ((await opts.engine.tick()) === 1000);
    } finally {
      await opts.redis.eval(RELEASE, 1, lockKey, owner);
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = round()
      .catch((err: unknown) => opts.logger.warn({ err }, 'heartbeat deadlines round failed; retrying next tick'))
      .finally(() => {
        running = null;
      });
  }, opts.tickMs ?? HEARTBEAT_TICK_MS);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
