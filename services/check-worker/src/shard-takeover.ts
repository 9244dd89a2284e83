import type { Redis } from 'ioredis';

/**
 * The set of the processes that take a shard as their own (CHECK_WORKER_SHARDS), scored by the
 * Redis clock at each one's last liveness renewal (worker-liveness.ts renews it with the
 * registry): only when there are several shards.
 */
export const checkWorkerOwnersKey = (shardPrefix: string): string => `${shardPrefix}:check-worker-owners`;

// KEYS[1] the owners set, ARGV[1] the liveness TTL: forgets the owners that have not renewed for
// it (a dead owner's entry would otherwise count forever) and returns how many are left.
const LIVE_OWNERS = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('zcard', KEYS[1])`;

/** How many processes owning the shard renewed their liveness within the last `ttlMs`. */
export async function liveOwnerCount(redis: Redis, shardPrefix: string, ttlMs: number): Promise<number> {
  return (await redis.eval(LIVE_OWNERS, 1, checkWorkerOwnersKey(shardPrefix), ttlMs)) as number;
}

/** A shard this process does not own, and a connection to its Redis to watch its owners. */
export interface WatchedShard {
  readonly index: number;
  readonly prefix: string;
  readonly redis: Redis;
}

/**
 * Watches the shards this process does not own (docs/scaling.md, "When a shard's workers die"):
 * a shard none of whose owners renewed its liveness for a whole TTL is taken over (`takeOver`,
 * which starts a worker on it) until an owner is back (`handBack`, which stops that worker once
 * its checks are done). Nothing is judged before this process has itself been up a TTL, so
 * the owners starting beside it have the time to register. One pass at a time, every `everyMs`.
 */
export function watchOrphanShards(opts: {
  shards: readonly WatchedShard[];
  ttlMs: number;
  everyMs: number;
  onError(err: unknown, index: number): void;
  takeOver(index: number): Promise<void>;
  handBack(index: number): Promise<void>;
}): { stop(): Promise<void> } {
  const startedAt = Date.now();
  const taken = new Set<number>();
  let pass: Promise<void> | undefined;
  let stopped = false;
  const look = async (): Promise<void> => {
    for (const shard of opts.shards) {
      if (stopped) return;
      try {
        const owners = await liveOwnerCount(shard.redis, shard.prefix, opts.ttlMs);
        if (owners === 0 && !taken.has(shard.index) && Date.now() - startedAt >= opts.ttlMs) {
          await opts.takeOver(shard.index);
          taken.add(shard.index);
        } else if (owners > 0 && taken.has(shard.index)) {
          taken.delete(shard.index);
          await opts.handBack(shard.index);
        }
      } catch (err) {
        opts.onError(err, shard.index);
      }
    }
  };
  const timer = setInterval(() => {
    pass ??= look().finally(() => {
      pass = undefined;
    });
  }, opts.everyMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await pass;
    },
  };
}
