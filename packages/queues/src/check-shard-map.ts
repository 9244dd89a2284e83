import type { Redis } from 'ioredis';

/**
 * The shard of the checks queue a monitor's job lives on (docs/scaling.md): a stable hash of its
 * id modulo the number of shards. Stable across processes and versions (a pure function of the id
 * and the count), so the api that schedules and the reconciler that repairs always agree. The
 * hash is murmur3's 32-bit finalizer, not the id itself: ids made in a burst are consecutive,
 * and a plain modulo would still spread them, but a fixed mix keeps any arithmetic pattern of
 * ids (every tenth monitor a heartbeat, say) from landing on one shard. It is another mix than
 * scheduleOffsetMs()'s, so a shard's monitors still spread over the whole interval.
 */
export function checkShardOf(monitorId: number, shardCount: number): number {
  if (shardCount <= 1) return 0;
  let h = monitorId >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % shardCount;
}

/** A shard as the config names it (packages/config: CheckShardConfig). */
export interface CheckShardAddress {
  readonly url: string;
  readonly prefix: string;
}

/** A shard opened: its Redis connection and its queue's prefix. */
export interface CheckShardConnection {
  readonly connection: Redis;
  readonly prefix: string;
}

/**
 * Opens a connection per shard, except that a shard on `main.url` uses `main.connection`: without
 * CHECK_SHARDS (one shard on REDIS_URL) nothing more is opened than before. `opened` lists the
 * connections made here, which the caller closes.
 */
export function connectCheckShards(
  shards: readonly CheckShardAddress[],
  main: { url: string; connection: Redis },
  connect: (url: string) => Redis,
): { shards: CheckShardConnection[]; opened: Redis[] } {
  const byUrl = new Map<string, Redis>([[main.url, main.connection]]);
  const opened: Redis[] = [];
  const connected = shards.map(({ url, prefix }) => {
    let connection = byUrl.get(url);
    if (!connection) {
      connection = connect(url);
      byUrl.set(url, connection);
      opened.push(connection);
    }
    return { connection, prefix };
  });
  return { shards: connected, opened };
}
