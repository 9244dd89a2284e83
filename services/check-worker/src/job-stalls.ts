import type { Redis } from 'ioredis';

// Raises BullMQ's stall count of a job (`stc` in its hash, which BullMQ's stalled-job check raises
// when it finds a job whose lock lapsed), only while the job lock still holds `token`: a job
// finished or taken meanwhile is left alone. KEYS[1] the job's hash; ARGV[1] the token.
const COUNT_AS_STALL = `if redis.call('get', KEYS[1] .. ':lock') ~= ARGV[1] then return 0 end
redis.call('hincrby', KEYS[1], 'stc', 1)
return 1`;

/**
 * Counts the putting back of a check in flight as a stall of its job, so the worker that picks
 * it up knows the check is a re-run, and gives up its slot when re-running it could delay the
 * next one (stale-rerun.ts). Resolves to false when `token` no longer holds the job.
 */
export async function countAsStall(redis: Redis, jobKey: string, token: string): Promise<boolean> {
  return (await redis.eval(COUNT_AS_STALL, 1, jobKey, token)) === 1;
}
