import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { ROLLUP_RETENTION_DAYS, type RollupTable } from '../monitors/rollup-ranges';

export interface RetentionReport {
  results: number;
  rollups5m: number;
  rollups1h: number;
}

const DAY_MS = 86_400_000;
export const RETENTION_CHUNK = 10_000;

/**
 * Deletes rows older than `cutoff` in chunks, each its own short statement, so the check-worker's
 * inserts never wait behind one huge delete and the WAL grows by a chunk at a time.
 */
async function deleteInChunks(ds: DataSource, table: string, column: string, cutoff: Date, chunk: number): Promise<number> {
  let total = 0;
  for (;;) {
    const [, count]: [unknown, number] = await ds.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT $2))`,
      [cutoff, chunk],
    );
    total += count;
    if (count < chunk) return total;
  }
}

/**
 * Raw results older than RESULT_RETENTION_DAYS, 5-minute rollups older than 35 days and hourly
 * ones older than 400 days go; daily rollups stay, so uptime and statistics keep their history
 * (statistics read the rollups, never the raw results).
 */
export async function applyRetention(ds: DataSource, resultRetentionDays: number, now = new Date(), chunk = RETENTION_CHUNK): Promise<RetentionReport> {
  const before = (days: number): Date => new Date(now.getTime() - days * DAY_MS);
  const rollupCutoff = (table: RollupTable): Date => before(ROLLUP_RETENTION_DAYS[table]!);
  return {
    // By planned time: the BRIN index on scheduled_at finds the old range without a b-tree per row.
    results: await deleteInChunks(ds, 'check_results', 'scheduled_at', before(resultRetentionDays), chunk),
    rollups5m: await deleteInChunks(ds, 'check_rollups_5m', 'bucket', rollupCutoff('check_rollups_5m'), chunk),
    rollups1h: await deleteInChunks(ds, 'check_rollups_1h', 'bucket', rollupCutoff('check_rollups_1h'), chunk),
  };
}

/**
 * Runs the retention now and then every `intervalMs` (an hour), on one API instance at a time:
 * a Redis lock held for the interval, like the schedule reconciler's.
 */
export function startRetentionJob(opts: {
  ds: DataSource;
  redis: Redis;
  prefix: string;
  resultRetentionDays: number;
  logger: Logger;
  intervalMs?: number;
}): { stop(): void; runOnce(): Promise<RetentionReport | null> } {
  const intervalMs = opts.intervalMs ?? 3_600_000;
  const lockKey = `${opts.prefix}:maintenance:retention-lock`;
  const runOnce = async (): Promise<RetentionReport | null> => {
    const got = await opts.redis.set(lockKey, String(process.pid), 'PX', Math.max(intervalMs - 1000, 5000), 'NX');
    if (got !== 'OK') return null;
    const report = await applyRetention(opts.ds, opts.resultRetentionDays);
    if (report.results || report.rollups5m || report.rollups1h) opts.logger.info({ ...report }, 'old results and rollups deleted');
    return report;
  };
  const tick = (): void => {
    runOnce().catch((err: unknown) => opts.logger.warn({ err }, 'retention failed; retrying next round'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
