import type { Redis } from 'ioredis';

/** What the keys under a prefix take in Redis, by kind of key (the prefix and queue name removed). */
export interface RedisFootprint {
  bytes: number;
  keys: number;
  byKind: Record<string, { keys: number; bytes: number }>;
}

/**
 * A key's kind: the part after `{prefix}:{queue}:` with ids and times folded (`m-N-G` for a
 * monitor's job, `repeat:monitor-N` and `repeat:monitor-N:T` for the job schedulers of before,
 * `delayed`, `events`), or the whole key for keys outside a queue.
 */
export function kindOfKey(key: string, prefix: string): string {
  return key
    .slice(prefix.length + 1)
    .replace(/monitor-\d+/g, 'monitor-N')
    .replace(/:m-\d+-[0-9a-z]+$/, ':m-N-G')
    .replace(/now-\d+-\d+/g, 'now-N-T')
    .replace(/:\d{12,}$/, ':T')
    .replace(/:\d+$/, ':N');
}

/**
 * `MEMORY USAGE … SAMPLES 0` of every key under `prefix`: exact per key (values, encoding and
 * Redis's per-key overhead), unaffected by what other clients of a shared Redis do meanwhile.
 * Allocator fragmentation is not in it (see `INFO memory`'s ratio).
 */
export async function redisFootprint(redis: Redis, prefix: string): Promise<RedisFootprint> {
  const byKind: RedisFootprint['byKind'] = {};
  let bytes = 0;
  let keys = 0;
  let cursor = '0';
  do {
    const [nextCursor, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 2000);
    cursor = nextCursor;
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    const sizes = (await pipeline.exec()) ?? [];
    batch.forEach((key, i) => {
      const size = Number(sizes[i]?.[1] ?? 0);
      const kind = kindOfKey(key, prefix);
      const entry = (byKind[kind] ??= { keys: 0, bytes: 0 });
      entry.keys += 1;
      entry.bytes += size;
      bytes += size;
      keys += 1;
    });
  } while (cursor !== '0');
  return { bytes, keys, byKind };
}
