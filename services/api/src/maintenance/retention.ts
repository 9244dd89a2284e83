import { DAY_MS, DEFAULT_RESULT_PARTITION, dropResultPartitionsBefore, utcDayStart, type DataSource, type RollupTable } from '@uptime/db';
import { ROLLUP_RETENTION_DAYS } from '../monitor-stats/rollup-ranges';
import { deleteOldChunk } from './retention.repository';

export interface RetentionReport {
  /** Raw results deleted row by row (from the default partition). */
  results: number;
  /** Daily partitions of raw results dropped whole. */
  resultPartitions: string[];
  locationResults: number;
  rollups5m: number;
  rollups1h: number;
  /** Audit log entries older than AUDIT_RETENTION_DAYS (docs/audit-log.md). */
  auditEntries: number;
}

export const RETENTION_CHUNK = 10_000;

/**
 * Deletes rows older than `cutoff` in chunks, each its own short statement, so the check-worker's
 * inserts never wait behind one huge delete and the WAL grows by a chunk at a time. `table` must
 * not be partitioned: a ctid is unique only within one table.
 */
async function deleteInChunks(ds: DataSource, table: string, column: string, cutoff: Date, chunk: number): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await deleteOldChunk(ds, table, column, cutoff, chunk);
    total += count;
    if (count < chunk) return total;
  }
}

/**
 * Raw results of the UTC days wholly older than RESULT_RETENTION_DAYS go (so a result is kept
 * that long at least, and less than a day longer): their daily partitions are dropped, stray
 * rows of the default partition deleted, and location results by the same cutoff. 5-minute
 * rollups older than 35 days and hourly ones older than 400 days go too; daily rollups stay, so
 * uptime and statistics keep their history (statistics read the rollups, never the raw results).
 * Audit log entries go AUDIT_RETENTION_DAYS after they were written, in chunks by the created_at index.
 */
export async function applyRetention(
  ds: DataSource,
  { resultRetentionDays, auditRetentionDays }: { resultRetentionDays: number; auditRetentionDays: number },
  now = new Date(),
  chunk = RETENTION_CHUNK,
): Promise<RetentionReport> {
  const before = (days: number): Date => new Date(now.getTime() - days * DAY_MS);
  const rollupCutoff = (table: RollupTable): Date => before(ROLLUP_RETENTION_DAYS[table]!);
  const resultCutoff = utcDayStart(before(resultRetentionDays));
  const { dropped } = await dropResultPartitionsBefore(ds, resultCutoff);
  return {
    // By planned time: the BRIN index on scheduled_at finds the old range without a b-tree per row.
    results: await deleteInChunks(ds, DEFAULT_RESULT_PARTITION, 'scheduled_at', resultCutoff, chunk),
    resultPartitions: dropped,
    locationResults: await deleteInChunks(ds, 'check_location_results', 'checked_at', resultCutoff, chunk),
    rollups5m: await deleteInChunks(ds, 'check_rollups_5m', 'bucket', rollupCutoff('check_rollups_5m'), chunk),
    rollups1h: await deleteInChunks(ds, 'check_rollups_1h', 'bucket', rollupCutoff('check_rollups_1h'), chunk),
    // audit_log is not partitioned; its created_at index finds the old entries.
    auditEntries: await deleteInChunks(ds, 'audit_log', 'created_at', before(auditRetentionDays), chunk),
  };
}
