import type { DataSource } from 'typeorm';
import { DAY_MS } from './durations';

/**
 * A table partitioned by range on a timestamptz column, one partition per UTC day or UTC month,
 * named `<table>_pYYYYMMDD` or `<table>_pYYYYMM`, plus `<table>_default`, which catches a row of
 * a period without its own partition (backdated data, a gap in maintenance), so an insert never
 * fails for want of a partition. Old periods then go by dropping a table instead of deleting
 * rows. check_results (result-partitions.ts) and the rollups (rollup-partitions.ts) are such tables.
 */
export interface TimePartitionedTable {
  table: string;
  span: 'day' | 'month';
}

export interface TimePartition {
  name: string;
  /** The first instant of the partition's UTC day or month. */
  start: Date;
  /** The first instant after it. */
  end: Date;
}

export interface EnsureReport {
  created: string[];
  /** Periods left to the default partition: it already holds rows of them, or the lock was busy. */
  skipped: string[];
}

// DDL on a partition briefly locks the whole table: never queue the workers' inserts behind a
// long wait for that lock; the next maintenance round tries again.
const DDL_LOCK_TIMEOUT = '3s';

export function utcDayStart(t: Date): Date {
  return new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
}

/** The first instant of the UTC day or month holding `t`. */
export function periodStart(span: TimePartitionedTable['span'], t: Date): Date {
  return span === 'day' ? utcDayStart(t) : new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
}

/** The first instant of the period after the one starting at `start`. */
export function nextPeriod(span: TimePartitionedTable['span'], start: Date): Date {
  return span === 'day' ? new Date(start.getTime() + DAY_MS) : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

export function timePartitionName({ table, span }: TimePartitionedTable, start: Date): string {
  const ymd = start.toISOString().slice(0, 10).replace(/-/g, '');
  return `${table}_p${span === 'day' ? ymd : ymd.slice(0, 6)}`;
}

export const defaultPartitionName = ({ table }: TimePartitionedTable): string => `${table}_default`;

/** Parses a partition's name back into its period, or null for another child (the default partition). */
export function parseTimePartition(t: TimePartitionedTable, name: string): TimePartition | null {
  const m = new RegExp(`^${t.table}_p(\\d{4})(\\d{2})(\\d{2})?$`).exec(name);
  if (!m || (t.span === 'day') !== (m[3] !== undefined)) return null;
  const start = new Date(`${m[1]}-${m[2]}-${m[3] ?? '01'}T00:00:00.000Z`);
  return { name, start, end: nextPeriod(t.span, start) };
}

/** The dated partitions of `t`, oldest first (the default partition is not among them). */
export async function listTimePartitions(ds: Pick<DataSource, 'query'>, t: TimePartitionedTable): Promise<TimePartition[]> {
  const rows: { name: string }[] = await ds.query(
    `SELECT c.relname AS name FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid WHERE h.inhparent = $1::regclass`,
    [t.table],
  );
  const partitions = rows.map((r) => parseTimePartition(t, r.name)).filter((p): p is TimePartition => p !== null);
  return partitions.sort((a, b) => a.start.getTime() - b.start.getTime());
}

function pgCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Runs one DDL statement in its own transaction, waiting at most DDL_LOCK_TIMEOUT for its lock. */
async function runDdl(ds: DataSource, sql: string): Promise<void> {
  await ds.transaction(async (em) => {
    await em.query(`SET LOCAL lock_timeout = '${DDL_LOCK_TIMEOUT}'`);
    await em.query(sql);
  });
}

/**
 * Creates the partitions of the periods from the one holding `from` to the one holding `to` that
 * do not exist yet. A period whose rows already sit in the default partition keeps them there
 * (moving them would hold the table's lock for as long as the copy); so does a period whose lock
 * was busy, until the next round.
 */
export async function ensureTimePartitions(ds: DataSource, t: TimePartitionedTable, from: Date, to: Date): Promise<EnsureReport> {
  const existing = new Set((await listTimePartitions(ds, t)).map((p) => p.name));
  const report: EnsureReport = { created: [], skipped: [] };
  for (let start = periodStart(t.span, from); start.getTime() <= to.getTime(); start = nextPeriod(t.span, start)) {
    const name = timePartitionName(t, start);
    if (existing.has(name)) continue;
    try {
      await runDdl(ds, `CREATE TABLE ${name} PARTITION OF ${t.table} FOR VALUES FROM ('${start.toISOString()}') TO ('${nextPeriod(t.span, start).toISOString()}')`);
      report.created.push(name);
    } catch (err) {
      const code = pgCode(err);
      // 42P07: another instance created it meanwhile.
      if (code === '42P07') continue;
      // 23514: the default partition holds rows of that period; 55P03: lock not available.
      if (code === '23514' || code === '55P03') report.skipped.push(name);
      else throw err;
    }
  }
  return report;
}

/**
 * Drops the partitions whose whole period is before `cutoff`; one whose lock was busy is left
 * for the next round. Dropping fires no delete trigger: a caller whose table has one removes
 * what it would have by itself.
 */
export async function dropTimePartitionsBefore(ds: DataSource, t: TimePartitionedTable, cutoff: Date): Promise<{ dropped: string[]; busy: string[] }> {
  const report = { dropped: [] as string[], busy: [] as string[] };
  for (const p of await listTimePartitions(ds, t)) {
    if (p.end.getTime() > cutoff.getTime()) continue;
    try {
      await runDdl(ds, `DROP TABLE ${p.name}`);
      report.dropped.push(p.name);
    } catch (err) {
      if (pgCode(err) !== '55P03') throw err;
      report.busy.push(p.name);
    }
  }
  return report;
}
