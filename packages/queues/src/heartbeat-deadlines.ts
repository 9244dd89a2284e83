import type { Redis } from 'ioredis';

// Removes each member (ARGV: member, score, member, score...) only while its score is at most the
// one given: a deadline moved later meanwhile stays.
const REMOVE_IF_AT = `local removed = 0
for i = 1, #ARGV, 2 do
  local score = redis.call('zscore', KEYS[1], ARGV[i])
  if score and tonumber(score) <= tonumber(ARGV[i + 1]) then removed = removed + redis.call('zrem', KEYS[1], ARGV[i]) end
end
return removed`;

/**
 * When each heartbeat monitor goes offline unless a ping comes first (docs/heartbeats.md): one
 * sorted set, monitor id → deadline in epoch ms, moved on each ping and drained by the
 * check-worker's heartbeat loop (services/check-worker/src/heartbeat/heartbeat-loop.ts). No
 * polling per monitor: the loop reads only the members already due.
 */
export class HeartbeatDeadlines {
  readonly key: string;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.key = heartbeatDeadlinesKey(prefix);
  }

  async set(monitorId: number, at: Date): Promise<void> {
    await this.redis.zadd(this.key, at.getTime(), String(monitorId));
  }

  /** Sets many deadlines in one command (a pass of the heartbeat engine). */
  async setMany(deadlines: readonly { monitorId: number; at: Date }[]): Promise<void> {
    if (deadlines.length === 0) return;
    await this.redis.zadd(this.key, ...deadlines.flatMap((d) => [d.at.getTime(), String(d.monitorId)]));
  }

  async remove(monitorId: number): Promise<void> {
    await this.redis.zrem(this.key, String(monitorId));
  }

  /**
   * Removes each monitor's deadline if it is still at or before its `at` (epoch ms: the one just
   * handled; Number.MAX_SAFE_INTEGER, whatever it is), in one script.
   */
  async removeManyIfAt(deadlines: readonly { monitorId: number; at: number }[]): Promise<void> {
    if (deadlines.length === 0) return;
    await this.redis.eval(REMOVE_IF_AT, 1, this.key, ...deadlines.flatMap((d) => [String(d.monitorId), String(d.at)]));
  }

  /** The monitors whose deadline is at or before `now`, earliest first, at most `limit`, with their deadlines. */
  async due(now: number, limit: number): Promise<{ monitorId: number; at: number }[]> {
    const flat = await this.redis.zrangebyscore(this.key, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit);
    const due: { monitorId: number; at: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) due.push({ monitorId: Number(flat[i]), at: Number(flat[i + 1]) });
    return due;
  }

  /** How many monitors have a deadline. */
  count(): Promise<number> {
    return this.redis.zcard(this.key);
  }

  /** The monitors that have a deadline (the reconciler, when the count says some are missing). */
  async members(): Promise<Set<number>> {
    return new Set((await this.redis.zrange(this.key, 0, -1)).map(Number));
  }

  /** A monitor's deadline, if it has one (tests, diagnostics). */
  async of(monitorId: number): Promise<Date | undefined> {
    const score = await this.redis.zscore(this.key, String(monitorId));
    return score === null ? undefined : new Date(Number(score));
  }
}

export const heartbeatDeadlinesKey = (prefix: string): string => `${prefix}:heartbeat:deadlines`;
