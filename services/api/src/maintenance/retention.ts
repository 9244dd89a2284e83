import {
  DAY_MS,
  DEFAULT_RESULT_PARTITION,
  defaultPartitionName,
  dropResultPartitionsBefore,
  dropTimePartitionsBefore,
  ROLLUP_PARTITIONING,
  utcDayStart,
  type DataSource,
  type PartitionedRollupTable,
} from '@uptime/db';
import { ROLLUP_RETENTION_DAYS } from '../monitor-stats/rollup-ranges';
import { deleteOldChunk } from './retention.repository';

export interface RetentionReport {
  /** Raw results deleted row by row (from the default partition). */
  results: number;
  /** Daily partitions of raw results dropped whole. */
  resultPartitions: string[];
  locationResults: number;
  /** Rollup rows deleted row by row, from the default partitions. */
  rollups5m: number;
  rollups1h: number;
  agentRollups1h: number;
  /** Partitions of rollups (a day of 5-minute ones, a month of hourly ones) dropped whole. */
  rollupPartitions: string[];
  /** Audit log entries older than AUDIT_RETENTION_DAYS (docs/audit-log.md). */
  auditEntries: number;
}

export const RETENTION_CHUNK = 10_000;

/**
 * Days each partitioned rollup table is kept. Agents' hourly rows go with the monitors' hourly
 * ones: their statistics read the last 24 hours (services/api/src/agents/agent-stats.repository.ts).
 */
const ROLLUP_TABLE_RETENTION_DAYS: Readonly<Record<PartitionedRollupTable, number>> = {
  check_rollups_5m: ROLLUP_RETENTION_DAYS.check_rollups_5m!,
  check_rollups_1h: ROLLUP_RETENTION_DAYS.check_rollups_1h!,
  agent_check_rollups_1h: ROLLUP_RETENTION_DAYS.check_rollups_1h!,
};

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
 * Each partitioned rollup table loses the partitions whose whole period is past its retention
 * (so a row is kept that long at least, and less than a day or a month longer), and the rows of
 * its default partition past it, in chunks.
 */
async function applyRollupRetention(ds: DataSource, now: Date, chunk: number): Promise<{ rows: Record<PartitionedRollupTable, number>; dropped: string[] }> {
  const rows: Record<PartitionedRollupTable, number> = { check_rollups_5m: 0, check_rollups_1h: 0, agent_check_rollups_1h: 0 };
  const dropped: string[] = [];
  for (const t of ROLLUP_PARTITIONING) {
    const cutoff = new Date(now.getTime() - ROLLUP_TABLE_RETENTION_DAYS[t.table] * DAY_MS);
    dropped.push(...(await dropTimePartitionsBefore(ds, t, cutoff)).dropped);
    rows[t.table] = await deleteInChunks(ds, defaultPartitionName(t), 'bucket', cutoff, chunk);
  }
  return { rows, dropped };
}

/**
 * Raw results of the UTC days wholly older than RESULT_RETENTION_DAYS go (so a result is kept
 * that long at least, and less than a day longer): their daily partitions are dropped, stray
 * rows of the default partition deleted, and location results by the same cutoff. 5-minute
 * rollups older than 35 days and hourly ones older than 400 days go too, by partition; daily
 * rollups stay, so uptime and statistics keep their history (statistics read the rollups, never
 * the raw results). Audit log entries go AUDIT_RETENTION_DAYS after they were written, in chunks
 * by the created_at index.
 */
export async function applyRetention(
  ds: DataSource,
  { resultRetentionDays, auditRetentionDays }: { resultRetentionDays: number; auditRetentionDays: number },
  now = new Date(),
  chunk = RETENTION_CHUNK,
): Promise<RetentionReport> {
  const before = (days: number): Date => new Date(now.getTime() - days * DAY_MS);
  const resultCutoff = utcDayStart(before(resultRetentionDays));
  const { dropped } = await dropResultPartitionsBefore(ds, resultCutoff);
  const rollups = await applyRollupRetention(ds, now, chunk);
  return {
    // By planned time: the BRIN index on scheduled_at finds the old range without a b-tree per row.
    results: await deleteInChunks(ds, DEFAULT_RESULT_PARTITION, 'scheduled_at', resultCutoff, chunk),
    resultPartitions: dropped,
    locationResults: await deleteInChunks(ds, 'check_location_results', 'checked_at', resultCutoff, chunk),
    rollups5m: rollups.rows.check_rollups_5m,
    rollups1h: rollups.rows.check_rollups_1h,
    agentRollups1h: rollups.rows.agent_check_rollups_1h,
    rollupPartitions: rollups.dropped,
    // audit_log is not partitioned; its created_at index finds the old entries.
    auditEntries: await deleteInChunks(ds, 'audit_log', 'created_at', before(auditRetentionDays), chunk),
  };
}
