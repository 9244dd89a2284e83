import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/**
 * One cached answer: named representations (a version, a JSON body, a gzipped HTML body, ...),
 * kept and read as bytes, so a body goes from Redis to the socket without being decoded.
 */
export type CacheEntry = Record<string, Buffer>;

/** What a fill returns: text or bytes per field. */
export type CacheFill = Record<string, string | Buffer>;

const asBytes = (fill: CacheFill): CacheEntry =>
  Object.fromEntries(Object.entries(fill).map(([field, value]) => [field, Buffer.isBuffer(value) ? value : Buffer.from(value)]));

export interface PublicCacheOptions {
  redis: Redis;
  /** QUEUE_PREFIX: the keys live beside the queues of this install. */
  prefix: string;
  /** PUBLIC_CACHE_SECONDS. */
  ttlSeconds: number;
}

/** A filler holds the fill lock this long at most; past it another replica may fill. */
const FILL_LOCK_MS = 5_000;
/** How often, and how long, a reader that lost the race for the lock looks for the filler's entry. */
const POLL_MS = 15;
const WAIT_MS = 3_000;

/**
 * The short cache in front of the public status pages and badges (docs/status-pages.md), shared
 * by every api replica through Redis. An entry is a Redis hash written whole, so a reader takes
 * only the representation it serves (`HMGET`). However many requests miss at once, one fill runs
 * per key and period: within a process they share one promise, and across replicas the first to
 * take the key's fill lock (`SET NX PX`) fills while the others poll for its entry. A filler
 * that dies leaves a lock that expires; a reader that waited too long fills itself rather than
 * fail the request.
 */
export class PublicCache {
  private readonly inFlight = new Map<string, Promise<CacheEntry>>();

  constructor(private readonly options: PublicCacheOptions) {}

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  /** The key of a cached page (by slug), badge (by token hash) or incident page (by `{slug}:{id}`). */
  keyOf(kind: 'page' | 'badge' | 'incident', id: string): string {
    return `${this.options.prefix}:public:${kind}:${id}`;
  }

  /** `fields` of the entry at `key`, filled by `fill` when absent; every entry a fill writes holds every field. */
  async read(key: string, fields: readonly string[], fill: () => Promise<CacheFill>): Promise<CacheEntry> {
    const cached = await this.options.redis.hmgetBuffer(key, ...fields);
    // An entry lacking a field (written by an older version of the fill) is a miss, not an empty answer.
    if (cached.every((v) => v !== null)) return Object.fromEntries(fields.map((f, i) => [f, cached[i]!]));
    let filling = this.inFlight.get(key);
    if (!filling) {
      filling = this.fillShared(key, fields, fill).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, filling);
    }
    const entry = await filling;
    return Object.fromEntries(fields.map((f) => [f, entry[f] ?? Buffer.alloc(0)]));
  }

  /** Drops entries at once (an owner changed a page, revoked a badge, deleted a monitor). */
  async forget(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await this.options.redis.del(...keys);
  }

  private async fillShared(key: string, fields: readonly string[], fill: () => Promise<CacheFill>): Promise<CacheEntry> {
    const { redis } = this.options;
    const lockKey = `${key}:filling`;
    const isFiller = (await redis.set(lockKey, '1', 'PX', FILL_LOCK_MS, 'NX')) === 'OK';
    if (!isFiller) {
      for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; ) {
        await sleep(POLL_MS);
        const entry = await redis.hgetallBuffer(key);
        // An entry of an older version of the fill (another replica, during a deploy) may lack a field: not the one awaited.
        if (fields.every((f) => entry[f] !== undefined)) return entry;
      }
    }
    try {
      const entry = asBytes(await fill());
      await redis
        .multi()
        .del(key)
        .hset(key, entry)
        .pexpire(key, this.options.ttlSeconds * 1000)
        .exec();
      return entry;
    } finally {
      if (isFiller) await redis.del(lockKey);
    }
  }
}
