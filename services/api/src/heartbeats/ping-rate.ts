import type { Redis } from 'ioredis';

/** Pings a second recorded per token at most (docs/heartbeats.md); the rest are answered 429. */
export const PINGS_PER_SECOND = 5;

/**
 * Counts a ping of `token` in the current second: true while within PINGS_PER_SECOND. Asked for
 * every token, known or not, so the answer to an unknown token costs what a known one does.
 */
export async function withinPingRate(redis: Redis, prefix: string, token: string, now = Date.now()): Promise<boolean> {
  const key = `${prefix}:ping-rate:${Math.floor(now / 1000)}:${token}`;
  const [[, count] = [null, 0]] = (await redis.multi().incr(key).pexpire(key, 2000).exec()) ?? [];
  return Number(count) <= PINGS_PER_SECOND;
}
