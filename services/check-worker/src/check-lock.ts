import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/**
 * How long a check lock lives without its owner renewing it. Short, so a worker killed mid-check
 * (kill -9, OOM) holds its monitors for at most this long: their next slot is checked, as long as
 * the interval is longer (MIN_CHECK_INTERVAL_SECONDS is 30 in production). CHECK_LOCK_TTL_MS
 * sets another (the fault test's 3 s, on a 5 s interval).
 */
export const CHECK_LOCK_TTL_MS = 15_000;

/**
 * One check of a monitor at a time across all workers (docs/monitors.md: a check due while the
 * previous one still runs is skipped). The owner renews the lock every third of its life while
 * the check runs, however long the check's timeout and retries make it; a dead owner's lock
 * expires by itself within `ttlMs`.
 */
export class CheckLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number = CHECK_LOCK_TTL_MS,
  ) {}

  private key(monitorId: number): string {
    return `${this.prefix}:check-lock:${monitorId}`;
  }

  /** A release function, or null when another check of this monitor is running. */
  async acquire(monitorId: number): Promise<(() => Promise<void>) | null> {
    const key = this.key(monitorId);
    const token = randomUUID();
    const ok = await this.redis.set(key, token, 'PX', this.ttlMs, 'NX');
    if (ok !== 'OK') return null;
    // A failed renewal (Redis away) is not retried early: the next tick tries again, and at
    // worst the lock lapses and another worker may start the monitor's next check meanwhile.
    const renewal = setInterval(() => {
      this.redis.eval(RENEW, 1, key, token, this.ttlMs).catch(() => undefined);
    }, Math.floor(this.ttlMs / 3));
    renewal.unref();
    return async () => {
      clearInterval(renewal);
      await this.redis.eval(RELEASE, 1, key, token);
    };
  }
}
