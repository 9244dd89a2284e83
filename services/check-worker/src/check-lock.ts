import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One check of a monitor at a time across all workers (contract §5: a check due while the
 * previous one still runs is skipped). The lock expires by itself if a worker dies.
 */
export class CheckLock {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(monitorId: number): string {
    return `${this.prefix}:check-lock:${monitorId}`;
  }

  /** A release function, or null when another check of this monitor is running. */
  async acquire(monitorId: number, ttlMs: number): Promise<(() => Promise<void>) | null> {
    const token = randomUUID();
    const ok = await this.redis.set(this.key(monitorId), token, 'PX', ttlMs, 'NX');
    if (ok !== 'OK') return null;
    return async () => {
      await this.redis.eval(RELEASE, 1, this.key(monitorId), token);
    };
  }
}
