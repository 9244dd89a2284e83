import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SameTickBatch } from './same-tick-batch';

// Both scripts take the locks as KEYS and their tokens as ARGV, and touch a lock only while it
// still holds its owner's token: one that lapsed and was taken by another worker is left alone.
// Several keys in one script need them in one hash slot under Redis Cluster; they share the
// queue prefix, which a cluster deployment hash-tags as BullMQ requires anyway.
const RELEASE = `local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i] then n = n + redis.call('del', key) end
end
return n`;
const RENEW = `local ttl = ARGV[1]
local n = 0
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i + 1] then n = n + redis.call('pexpire', key, ttl) end
end
return n`;
// A dead process's locks (docs/reliability.md, "A check-worker killed mid-check"): KEYS the
// locks of its monitors, ARGV[1] its id. Only a lock whose token still names that process goes.
const RELEASE_OF_OWNER = `local owner = ARGV[1] .. ':'
local n = 0
for _, key in ipairs(KEYS) do
  local token = redis.call('get', key)
  if token and string.sub(token, 1, #owner) == owner then n = n + redis.call('del', key) end
end
return n`;

/** Locks per script call: bounds how long one call keeps Redis (single-threaded) busy. */
const LOCKS_PER_CALL = 1000;

/**
 * How long a check lock lives without its owner renewing it. Short, so a worker killed mid-check
 * (kill -9, OOM) holds its monitors for at most this long: their next slot is checked, as long as
 * the interval is longer (MIN_CHECK_INTERVAL_SECONDS is 30 in production). CHECK_LOCK_TTL_MS
 * sets another (the fault test's 3 s, on a 5 s interval).
 */
export const CHECK_LOCK_TTL_MS = 15_000;

interface HeldLock {
  key: string;
  token: string;
}

/**
 * One check of a monitor at a time across all workers (docs/monitors.md: a check due while the
 * previous one still runs is skipped). The process renews every lock it holds every third of
 * their life, however long the check's timeout and retries make it, in one call per pass; a dead
 * owner's locks expire by themselves within `ttlMs`. Releases made in the same turn of the event
 * loop (the jobs of one result batch: docs/capacity.md) go to Redis as one call.
 */
export class CheckLock {
  /** The locks this process holds, by key: renewed, and released by releaseAll(). */
  private readonly held = new Map<string, HeldLock>();
  /** Releases sent or about to be, by key: an acquire of the same monitor waits for them. */
  private readonly releasing = new Map<string, Promise<void>>();
  private readonly releases: SameTickBatch<HeldLock>;
  private renewal?: NodeJS.Timeout;
  /** Starts every token, so a peer can release this process's locks once it is dead (worker-liveness.ts). */
  private owner: string = randomUUID();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlMs: number = CHECK_LOCK_TTL_MS,
  ) {
    this.releases = new SameTickBatch(async (locks) => {
      await this.redis.eval(RELEASE, locks.length, ...locks.map((l) => l.key), ...locks.map((l) => l.token));
    }, LOCKS_PER_CALL);
  }

  /** Names this process in the tokens of locks taken from now on: its BullMQ worker id. */
  ownBy(owner: string): void {
    this.owner = owner;
  }

  /** Releases the locks of `monitorIds` that a dead process `owner` still holds; returns how many. */
  async releaseOf(owner: string, monitorIds: readonly number[]): Promise<number> {
    let released = 0;
    for (let start = 0; start < monitorIds.length; start += LOCKS_PER_CALL) {
      const keys = monitorIds.slice(start, start + LOCKS_PER_CALL).map((id) => this.key(id));
      released += (await this.redis.eval(RELEASE_OF_OWNER, keys.length, ...keys, owner)) as number;
    }
    return released;
  }

  private key(monitorId: number): string {
    return `${this.prefix}:check-lock:${monitorId}`;
  }

  /** A release function, or null when another check of this monitor is running. */
  async acquire(monitorId: number): Promise<(() => Promise<void>) | null> {
    const key = this.key(monitorId);
    // As when each release was its own command: this process's own release of the monitor,
    // called before, reaches Redis before this attempt.
    const releasing = this.releasing.get(key);
    if (releasing) await releasing.catch(() => undefined);
    const token = `${this.owner}:${randomUUID()}`;
    const ok = await this.redis.set(key, token, 'PX', this.ttlMs, 'NX');
    if (ok !== 'OK') return null;
    const lock: HeldLock = { key, token };
    this.hold(lock);
    return () => this.release(lock);
  }

  /** Releases every lock this process holds (a forced shutdown: in-flight-checks.ts). */
  async releaseAll(): Promise<void> {
    await Promise.allSettled([...this.held.values()].map((lock) => this.release(lock)));
  }

  /** Stops renewing `lock` at once and deletes it if it is still ours; resolves once Redis has answered. */
  private release(lock: HeldLock): Promise<void> {
    if (this.held.get(lock.key) === lock) this.held.delete(lock.key);
    if (this.held.size === 0) this.stopRenewing();
    const done = this.releases.add(lock);
    this.releasing.set(lock.key, done);
    const forget = (): void => {
      if (this.releasing.get(lock.key) === done) this.releasing.delete(lock.key);
    };
    done.then(forget, forget);
    return done;
  }

  private hold(lock: HeldLock): void {
    this.held.set(lock.key, lock);
    if (this.renewal) return;
    // A lock taken just after a pass is renewed by the next one, a third of its life later: as
    // often as when each lock had its own timer. A renewal that fails (Redis away) is not retried
    // early: the next pass tries again, and at worst a lock lapses and another worker may start
    // the monitor's next check meanwhile.
    this.renewal = setInterval(() => this.renewHeld(), Math.floor(this.ttlMs / 3));
    this.renewal.unref();
  }

  private stopRenewing(): void {
    clearInterval(this.renewal);
    this.renewal = undefined;
  }

  private renewHeld(): void {
    const locks = [...this.held.values()];
    for (let start = 0; start < locks.length; start += LOCKS_PER_CALL) {
      const group = locks.slice(start, start + LOCKS_PER_CALL);
      this.redis
        .eval(RENEW, group.length, ...group.map((l) => l.key), this.ttlMs, ...group.map((l) => l.token))
        .catch(() => undefined);
    }
  }
}
