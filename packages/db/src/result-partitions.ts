import type { DataSource } from 'typeorm';
import { DAY_MS } from './durations';
import { defaultPartitionName, dropTimePartitionsBefore, ensureTimePartitions, parseTimePartition, timePartitionName, type EnsureReport, type TimePartitionedTable } from './time-partitions';

/**
 * check_results is partitioned by UTC day of `scheduled_at` (migration 1732270006000): one
 * partition per day named check_results_pYYYYMMDD, and a default partition (time-partitions.ts).
 * Whole days then go by dropping a table, and a closed day's key index is rebuilt packed (see
 * compactResultPartitions).
 */
export const CHECK_RESULTS_PARTITIONING: TimePartitionedTable = { table: 'check_results', span: 'day' };
export const DEFAULT_RESULT_PARTITION = defaultPartitionName(CHECK_RESULTS_PARTITIONING);

// Marks a partition whose key index was rebuilt; REINDEX keeps the comment of the index.
const COMPACTED_MARK = 'compacted';

export interface ResultPartition {
  name: string;
  /** The first instant of the partition's UTC day. */
  day: Date;
  /** This partition's part of the unique (monitor_id, scheduled_at) index. */
  keyIndex: string;
  compacted: boolean;
}

export const resultPartitionName = (day: Date): string => timePartitionName(CHECK_RESULTS_PARTITIONING, day);

const nextDay = (day: Date): Date => new Date(day.getTime() + DAY_MS);

/** The daily partitions, oldest first (the default partition is not among them). */
export async function listResultPartitions(ds: DataSource): Promise<ResultPartition[]> {
  const rows: { name: string; key_index: string | null; comment: string | null }[] = await ds.query(
    `SELECT c.relname AS name, i.relname AS key_index, obj_description(i.oid, 'pg_class') AS comment
       FROM pg_inherits h
       JOIN pg_class c ON c.oid = h.inhrelid
       LEFT JOIN pg_index x ON x.indrelid = c.oid
             AND x.indexrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'check_results_monitor_time_key'::regclass)
       LEFT JOIN pg_class i ON i.oid = x.indexrelid
      WHERE h.inhparent = 'check_results'::regclass`,
  );
  const partitions: ResultPartition[] = [];
  for (const r of rows) {
    const p = parseTimePartition(CHECK_RESULTS_PARTITIONING, r.name);
    if (!p || r.key_index === null) continue;
    partitions.push({ name: r.name, day: p.start, keyIndex: r.key_index, compacted: r.comment === COMPACTED_MARK });
  }
  return partitions.sort((a, b) => a.day.getTime() - b.day.getTime());
}

/** Creates the daily partitions of [from, to] that do not exist yet (ensureTimePartitions). */
export const ensureResultPartitions = (ds: DataSource, from: Date, to: Date): Promise<EnsureReport> => ensureTimePartitions(ds, CHECK_RESULTS_PARTITIONING, from, to);

/**
 * Rebuilds the key index of every closed day (its whole day before `closedBefore`) not yet
 * rebuilt. Results of 30,000 monitors land all over that index, so its pages split half-full
 * and average ~65 % full (about 45 bytes a result); rebuilt packed once nothing more arrives,
 * it takes ~28 (docs/capacity.md). CONCURRENTLY: reads and late inserts are never blocked.
 */
export async function compactResultPartitions(ds: DataSource, closedBefore: Date): Promise<string[]> {
  const compacted: string[] = [];
  for (const p of await listResultPartitions(ds)) {
    if (p.compacted || nextDay(p.day).getTime() > closedBefore.getTime()) continue;
    await dropInvalidIndexes(ds, p.name);
    await ds.query(`ALTER INDEX ${p.keyIndex} SET (fillfactor = 100)`);
    await ds.query(`REINDEX INDEX CONCURRENTLY ${p.keyIndex}`);
    await ds.query(`COMMENT ON INDEX ${p.keyIndex} IS '${COMPACTED_MARK}'`);
    compacted.push(p.name);
  }
  return compacted;
}

/**
 * An interrupted REINDEX CONCURRENTLY (a restart, a cancelled statement) leaves its new index
 * behind, invalid but still written to by every insert; the next attempt would add another.
 */
async function dropInvalidIndexes(ds: DataSource, partition: string): Promise<void> {
  const invalid: { name: string }[] = await ds.query(
    `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT x.indisvalid`,
    [partition],
  );
  for (const { name } of invalid) await ds.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
}

/**
 * Drops the daily partitions whose whole day is before `cutoff`. A drop does not fire the
 * delete trigger that removes location results: the caller removes those by their own time.
 */
export const dropResultPartitionsBefore = (ds: DataSource, cutoff: Date): Promise<{ dropped: string[]; busy: string[] }> =>
  dropTimePartitionsBefore(ds, CHECK_RESULTS_PARTITIONING, cutoff);

/** Bytes on disk of raw results (every partition's heap, TOAST and indexes) and their count. */
export async function resultStorage(ds: Pick<DataSource, 'query'>): Promise<{ results: number; bytes: number }> {
  const [row]: { results: number; bytes: string }[] = await ds.query(
    `SELECT (SELECT count(*) FROM check_results)::int AS results,
            (SELECT coalesce(sum(pg_total_relation_size(h.inhrelid)), 0) FROM pg_inherits h
              WHERE h.inhparent = 'check_results'::regclass)::bigint AS bytes`,
  );
  return { results: row!.results, bytes: Number(row!.bytes) };
}
