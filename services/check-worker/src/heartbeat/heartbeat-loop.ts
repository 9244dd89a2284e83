import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import type { HeartbeatEngine } from './heartbeat-engine';

/**
 * How often a pass runs: a ping is stepped, and a heartbeat goes offline after due + grace, within
 * this plus the pass's own write (docs/heartbeats.md). An idle pass is one Redis read and one
 * index read of the (empty) inbox; at 250 ms the tick alone took up to a quarter of the 1 s
 * allowed from due + grace to offline (docs/capacity.md, "Heartbeats").
 */
export const HEARTBEAT_TICK_MS = 100;
const LOCK_TTL_MS = 10_000;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;

/**
 * Runs the heartbeat engine's passes every HEARTBEAT_TICK_MS, one check-worker at a time (a Redis
 * lock): each pass reads only the pings waiting and the deadlines already passed, so its cost
 * follows the pings and the heartbeats going offline, not the number of heartbeats. A pass that
 * found a full page goes on at once. Should two workers run a pass at once (a lock that expired),
 * the row locks make the second step nothing twice.
 *
 * `stop()` ends the loop after the batch in progress (one transaction): what is left waits in the
 * inbox and the deadlines for the next worker, so a stop takes a batch's time, not a backlog's.
 */
export function startHeartbeatLoop(opts: { engine: HeartbeatEngine; redis: Redis; prefix: string; logger: Logger; tickMs?: number }): { stop(): Promise<void> } {
  const lockKey = `${opts.prefix}:heartbeat:drain-lock`;
  const owner = randomUUID();
  let stopping = false;
  let running: Promise<void> | null = null;
  const round = async (): Promise<void> => {
    if ((await opts.redis.set(lockKey, owner, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return;
    try {
      // A full pass means more are waiting: go on at once rather than a tick later, holding the
      // lock for as long as the passes last.
      while (!stopping && (await opts.engine.tick(undefined, () => stopping)).more) {
        await opts.redis.eval(EXTEND, 1, lockKey, owner, String(LOCK_TTL_MS));
      }
    } finally {
      await opts.redis.eval(RELEASE, 1, lockKey, owner);
    }
  };
  const timer = setInterval(() => {
    if (running || stopping) return;
    running = round()
      .catch((err: unknown) => opts.logger.warn({ err }, 'heartbeat pass failed; retrying next tick'))
      .finally(() => {
        running = null;
      });
  }, opts.tickMs ?? HEARTBEAT_TICK_MS);
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
