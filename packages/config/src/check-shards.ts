/** One shard of the checks queue: its Redis and the key prefix of its queue there (docs/scaling.md). */
export interface CheckShardConfig {
  readonly index: number;
  readonly url: string;
  readonly prefix: string;
}

/** Past this many a list is a typo (a pasted file), not a plan: 1,000,000 monitors need ~10 (docs/scaling.md). */
const MAX_SHARDS = 64;
const REDIS_URL_FORMAT = /^rediss?:\/\/[^\s,]+$/;

const items = (raw: string | undefined): string[] =>
  raw === undefined
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/**
 * The key prefix of shard `index`'s checks queue. Shard 0 keeps QUEUE_PREFIX, so CHECK_SHARDS
 * naming REDIS_URL alone is the same installation as CHECK_SHARDS unset, and going from one
 * shard to several leaves shard 0's monitors where they are. The others get a suffix of their
 * own, so two shards may share one Redis (tests) without sharing a key.
 */
export const checkShardPrefix = (queuePrefix: string, index: number): string => (index === 0 ? queuePrefix : `${queuePrefix}-shard-${index}`);

/** The problems of CHECK_SHARDS and CHECK_WORKER_SHARDS, one line each (loadConfig refuses to start on any). */
export function checkShardProblems(shardsRaw: string | undefined, workerShardsRaw: string | undefined): string[] {
  const problems: string[] = [];
  const urls = items(shardsRaw);
  const bad = urls.filter((u) => !REDIS_URL_FORMAT.test(u));
  if (bad.length > 0) problems.push(`CHECK_SHARDS: every entry must be a redis:// or rediss:// URL (not ${bad.map((u) => JSON.stringify(u)).join(', ')})`);
  const repeated = urls.filter((u, i) => urls.indexOf(u) !== i);
  if (repeated.length > 0) problems.push(`CHECK_SHARDS: each Redis may be listed once (${[...new Set(repeated)].join(', ')} repeated)`);
  if (urls.length > MAX_SHARDS) problems.push(`CHECK_SHARDS: at most ${MAX_SHARDS} shards`);
  const count = Math.max(1, urls.length);
  const own = items(workerShardsRaw);
  const invalid = own.filter((s) => !/^\d+$/.test(s) || Number(s) >= count);
  if (invalid.length > 0)
    problems.push(`CHECK_WORKER_SHARDS: every entry must be a shard number from 0 to ${count - 1} (not ${invalid.map((s) => JSON.stringify(s)).join(', ')})`);
  if (own.some((s, i) => own.indexOf(s) !== i)) problems.push('CHECK_WORKER_SHARDS: each shard may be listed once');
  return problems;
}

/** The shards (one on REDIS_URL and QUEUE_PREFIX when CHECK_SHARDS is unset) and the ones this process takes as its own. */
export function checkShardsOf(
  shardsRaw: string | undefined,
  workerShardsRaw: string | undefined,
  redis: { url: string; queuePrefix: string },
): { shards: CheckShardConfig[]; workerShards: number[] } {
  const urls = items(shardsRaw);
  const shards = (urls.length > 0 ? urls : [redis.url]).map((url, index) => ({ index, url, prefix: checkShardPrefix(redis.queuePrefix, index) }));
  const own = items(workerShardsRaw).map(Number);
  return { shards, workerShards: own.length > 0 ? own.sort((a, b) => a - b) : shards.map((s) => s.index) };
}
