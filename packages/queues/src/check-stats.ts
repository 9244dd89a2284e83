import type { Redis } from 'ioredis';

/**
 * What one check-worker says about its last minute of checks. Each worker writes its own field of
 * one Redis hash every few seconds; GET /dashboard reads the hash and sums it, so the web
 * application can tell "checks are running late" without Prometheus (docs/operations.md).
 */
export interface WorkerCheckStats {
  /** Checks started per second over the window. */
  perSecond: number;
  /** 99th percentile of start minus planned time, seconds; null with no check in the window. */
  lagP99Seconds: number | null;
  /** The p99 of lag as a fraction of each check's interval exceeds LATE_FRACTION. */
  late: boolean;
  /** When the worker wrote this, epoch milliseconds. */
  at: number;
}

/** The fleet's figure: the sum of the fresh workers' rates, the worst p99, late if any is. */
export interface CheckStats {
  perSecond: number;
  lagP99Seconds: number | null;
  late: boolean;
  /** Workers that reported within CHECK_STATS_FRESH_MS. */
  workers: number;
}

/** A check that starts more than this fraction of its interval after its planned time is late. */
export const LATE_FRACTION = 0.1;
/** How often a worker writes its figures. */
export const CHECK_STATS_PUBLISH_MS = 5_000;
/** A worker's figures older than this are ignored (and removed): the worker is gone. */
export const CHECK_STATS_FRESH_MS = 3 * CHECK_STATS_PUBLISH_MS;

const keyOf = (prefix: string): string => `${prefix}:check-stats`;

export async function publishCheckStats(redis: Redis, prefix: string, workerId: string, stats: WorkerCheckStats): Promise<void> {
  await redis.hset(keyOf(prefix), workerId, JSON.stringify(stats));
}

export async function withdrawCheckStats(redis: Redis, prefix: string, workerId: string): Promise<void> {
  await redis.hdel(keyOf(prefix), workerId);
}

function parseStats(raw: string): WorkerCheckStats | null {
  try {
    const v = JSON.parse(raw) as Partial<WorkerCheckStats>;
    const lagOk = v.lagP99Seconds === null || typeof v.lagP99Seconds === 'number';
    if (typeof v.perSecond !== 'number' || !lagOk || typeof v.late !== 'boolean' || typeof v.at !== 'number') return null;
    return { perSecond: v.perSecond, lagP99Seconds: v.lagP99Seconds ?? null, late: v.late, at: v.at };
  } catch {
    return null;
  }
}

/** The fleet's figures from every worker that reported recently; stale fields are removed. */
export async function readCheckStats(redis: Redis, prefix: string, now = Date.now()): Promise<CheckStats> {
  const fields = await redis.hgetall(keyOf(prefix));
  const fresh: WorkerCheckStats[] = [];
  const stale: string[] = [];
  for (const [workerId, raw] of Object.entries(fields)) {
    const stats = parseStats(raw);
    if (stats && now - stats.at <= CHECK_STATS_FRESH_MS) fresh.push(stats);
    else stale.push(workerId);
  }
  if (stale.length > 0) await redis.hdel(keyOf(prefix), ...stale);
  const lags = fresh.map((s) => s.lagP99Seconds).filter((l): l is number => l !== null);
  return {
    perSecond: Math.round(fresh.reduce((sum, s) => sum + s.perSecond, 0) * 10) / 10,
    lagP99Seconds: lags.length > 0 ? Math.max(...lags) : null,
    late: fresh.some((s) => s.late),
    workers: fresh.length,
  };
}
