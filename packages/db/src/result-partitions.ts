import type { DataSource } from 'typeorm';
import { DAY_MS } from './durations';

/**
 * check_results is partitioned by UTC day of `scheduled_at` (migration 1732270006000): one
 * partition per day named check_results_pYYYYMMDD, and a default partition that catches a row
 * of a day without its own partition (backdated data, or a gap in maintenance), so an insert
 * never fails for want of a partition. Whole days then go by dropping a table, and a closed
 * day's key index is rebuilt packed (see compactResultPartitions).
 */
export const DEFAULT_RESULT_PARTITION = 'check_results_default';

const PARTITION_NAME = /^check_results_p(\d{4})(\d{2})(\d{2})$/;
// Marks a partition whose key index was rebuilt; REINDEX keeps the comment of the index.
const COMPACTED_MARK = 'compacted';
// DDL on a partition briefly locks the whole table: never queue the workers' inserts behind a
// long wait for that lock; the next maintenance round tries again.
const DDL_LOCK_TIMEOUT = '3s';

export interface ResultPartition {
  name: string;
  /** The first instant of the partition's UTC day. */
  day: Date;
  /** This partition's part of the unique (monitor_id, scheduled_at) index. */
  keyIndex: string;
  compacted: boolean;
}

export function utcDayStart(t: Date): Date {
  return new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
}

export function resultPartitionName(day: Date): string {
  return `check_results_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

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
    const m = PARTITION_NAME.exec(r.name);
    if (!m || r.key_index === null) continue;
    partitions.push({ name: r.name, day: new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00.000Z`), keyIndex: r.key_index, compacted: r.comment === COMPACTED_MARK });
  }
  return partitions.sort((a, b) => a.day.getTime() - b.day.getTime());
}

function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface EnsureReport {
  created: string[];
  /** Days left to the default partition: it already holds rows of that day, or the lock was busy. */
  skipped: string[];
}

/**
 * Creates the daily partitions of [from, to] that do not exist yet. A day whose rows already
 * sit in the default partition keeps them there (moving them would hold the table's lock for
 * as long as the copy); so does a day whose lock was busy, until the next round.
 */
export async function ensureResultPartitions(ds: DataSource, from: Date, to: Date): Promise<EnsureReport> {
  const existing = new Set((await listResultPartitions(ds)).map((p) => p.name));
  const report: EnsureReport = { created: [], skipped: [] };
  for (let day = utcDayStart(from); day.getTime() <= to.getTime(); day = nextDay(day)) {
    const name = resultPartitionName(day);
    if (existing.has(name)) continue;
    try {
      await ds.transaction(async (em) => {
        await em.query(`SET LOCAL lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
        await em.query(
          `CREATE TABLE ${name} PARTITION OF check_results FOR VALUES FROM ('${day.toISOString()}') TO ('${nextDay(day).toISOString()}')`,
        );
      });
      report.created.push(name);
    } catch (err) {
      const code = pgCode(err);
      // 42P07: another instance created it meanwhile.
      if (code === '42P07') continue;
      // 23514: the default partition holds rows of that day; 55P03: lock not available.
      if (code === '23514' || code === '55P03') report.skipped.push(name);
      else throw err;
    }
  }
  return report;
}

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
export async function dropResultPartitionsBefore(ds: DataSource, cutoff: Date): Promise<{ dropped: string[]; busy: string[] }> {
  const report = { dropped: [] as string[], busy: [] as string[] };
  for (const p of await listResultPartitions(ds)) {
    if (nextDay(p.day).getTime() > cutoff.getTime()) continue;
    try {
      await ds.transaction(async (em) => {
        await em.query(`SET LOCAL lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
        await em.query(`DROP TABLE ${p.name}`);
      });
      report.dropped.push(p.name);
    } catch (err) {
      if (pgCode(err) !== '55P03') throw err;
      report.busy.push(p.name);
    }
  }
  return report;
}

/** Bytes on disk of raw results (every partition's heap, TOAST and indexes) and their count. */
export async function resultStorage(ds: Pick<DataSource, 'query'>): Promise<{ results: number; bytes: number }> {
  const [row]: { results: number; bytes: string }[] = await ds.query(
    `SELECT (SELECT count(*) FROM check_results)::int AS results,
            (SELECT coalesce(sum(pg_total_relation_size(h.inhrelid)), 0) FROM pg_inherits h
              WHERE h.inhparent = 'check_results'::regclass)::bigint AS bytes`,
  );
  return { results: row!.results, bytes: Number(row!.bytes) };
}
