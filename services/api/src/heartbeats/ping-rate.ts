import type { Redis } from 'ioredis';

/** Pings a second recorded per token at most (docs/heartbeats.md); the rest are answered 429. */
export const PINGS_PER_SECOND = 5;

// One command, not MULTI/INCR/PEXPIRE/EXEC: ioredis builds a Pipeline object per MULTI, which was
// a tenth of the API's CPU per ping in `pnpm bench:heartbeats --profile` (docs/capacity.md, "Heartbeats").
const COUNT = `local count = redis.call('incr', KEYS[1])
if count == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end
return count`;

/**
 * Counts a ping of `token` in the current second: true while within PINGS_PER_SECOND. Asked for
 * every token, known or not, so the answer to an unknown token costs what a known one does.
 */
export async function withinPingRate(redis: Redis, prefix: string, token: string, now = Date.now()): Promise<boolean> {
  const key = `${prefix}:ping-rate:${Math.floor(now / 1000)}:${token}`;
  return Number(await redis.eval(COUNT, 1, key, 2000)) <= PINGS_PER_SECOND;
}
