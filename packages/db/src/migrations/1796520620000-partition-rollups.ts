import type { MigrationInterface, QueryRunner } from 'typeorm';

interface Rollup {
  table: string;
  span: 'day' | 'month';
  /** The column before `bucket` in the primary key. */
  key: string;
  /** The table's foreign key to monitors, if it has one. */
  monitorForeignKey: string | null;
  /** The index on `bucket` alone (migration 1732270002000), if it has one. */
  bucketIndex: string | null;
}

// The names are fixed here: the maintenance job keeps creating partitions ahead under the same
// names (packages/db/src/time-partitions.ts, rollup-partitions.ts).
const ROLLUPS: Rollup[] = [
  { table: 'check_rollups_5m', span: 'day', key: 'monitor_id', monitorForeignKey: 'check_rollups_5m_monitor_id_fkey', bucketIndex: 'check_rollups_5m_bucket_idx' },
  { table: 'check_rollups_1h', span: 'month', key: 'monitor_id', monitorForeignKey: 'check_rollups_1h_monitor_id_fkey', bucketIndex: 'check_rollups_1h_bucket_idx' },
  // No foreign key: see migration 1732270003000.
  { table: 'agent_check_rollups_1h', span: 'month', key: 'agent_id', monitorForeignKey: null, bucketIndex: null },
];

// Partitions made here beyond the periods that have rows, so the check-workers' writes between this
// migration and the API's first maintenance round do not land in the default partition.
const AHEAD = { day: { back: '1 day', ahead: '7 days' }, month: { back: '1 month', ahead: '2 months' } } as const;

function partitionName(r: Rollup, start: Date): string {
  const ymd = start.toISOString().slice(0, 10).replace(/-/g, '');
  return `${r.table}_p${r.span === 'day' ? ymd : ymd.slice(0, 6)}`;
}

/** The key, the foreign key and the bucket index, as every version of the table has them. */
async function addKeysAndIndexes(q: QueryRunner, r: Rollup): Promise<void> {
  // The partition key is in the primary key, so the writers' ON CONFLICT (…, bucket) still finds it.
  await q.query(`ALTER TABLE ${r.table} ADD CONSTRAINT ${r.table}_pkey PRIMARY KEY (${r.key}, bucket)`);
  if (r.monitorForeignKey) {
    await q.query(`ALTER TABLE ${r.table} ADD CONSTRAINT ${r.monitorForeignKey} FOREIGN KEY (monitor_id) REFERENCES monitors (id) ON DELETE CASCADE`);
  }
  if (r.bucketIndex) await q.query(`CREATE INDEX ${r.bucketIndex} ON ${r.table} (bucket)`);
}

/** Renames `r.table` and the names its key and index hold, so a new `r.table` can take them. */
async function moveAside(q: QueryRunner, r: Rollup, suffix: string): Promise<string> {
  const old = `${r.table}_${suffix}`;
  await q.query(`ALTER TABLE ${r.table} RENAME TO ${old}`);
  await q.query(`ALTER TABLE ${old} RENAME CONSTRAINT ${r.table}_pkey TO ${old}_pkey`);
  if (r.bucketIndex) await q.query(`ALTER INDEX ${r.bucketIndex} RENAME TO ${old}_bucket_idx`);
  return old;
}

/**
 * Partitions the five-minute rollups by UTC day and the hourly ones (of monitors and of agents) by
 * UTC month of `bucket` (packages/db/src/rollup-partitions.ts): retention drops a whole period's
 * table instead of deleting its rows in chunks (docs/statistics.md). Existing rows go to the
 * partition of their period, created here for every period that has rows and a little ahead; the
 * default partition takes a row of any other period. The daily rollups stay one table: they are
 * kept for good. The copy holds the tables' locks until the migration commits, so the
 * check-workers' rollup writes wait for it.
 */
export class PartitionRollups1796520620000 implements MigrationInterface {
  name = 'PartitionRollups1796520620000';

  async up(q: QueryRunner): Promise<void> {
    for (const r of ROLLUPS) {
      const old = await moveAside(q, r, 'unpartitioned');
      await q.query(`CREATE TABLE ${r.table} (LIKE ${old}) PARTITION BY RANGE (bucket)`);
      await q.query(`CREATE TABLE ${r.table}_default PARTITION OF ${r.table} DEFAULT`);
      const { back, ahead } = AHEAD[r.span];
      // The series is stepped in UTC (timestamp without zone): a month added in the session's zone
      // could land an hour off midnight.
      const periods: { start: Date }[] = await q.query(`
        SELECT DISTINCT date_trunc('${r.span}', bucket, 'UTC') AS start FROM ${old}
        UNION
        SELECT generate_series(date_trunc('${r.span}', now() AT TIME ZONE 'UTC') - interval '${back}', date_trunc('${r.span}', now() AT TIME ZONE 'UTC') + interval '${ahead}', interval '1 ${r.span}') AT TIME ZONE 'UTC'`);
      for (const { start } of periods) {
        const end = r.span === 'day' ? new Date(start.getTime() + 86_400_000) : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
        await q.query(`CREATE TABLE ${partitionName(r, start)} PARTITION OF ${r.table} FOR VALUES FROM ('${start.toISOString()}') TO ('${end.toISOString()}')`);
      }
      // Keys and indexes after the copy: one build per partition instead of an insert each row.
      await q.query(`INSERT INTO ${r.table} SELECT * FROM ${old}`);
      await q.query(`DROP TABLE ${old}`);
      await addKeysAndIndexes(q, r);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const r of ROLLUPS) {
      const partitioned = await moveAside(q, r, 'partitioned');
      await q.query(`CREATE TABLE ${r.table} (LIKE ${partitioned})`);
      await q.query(`INSERT INTO ${r.table} SELECT * FROM ${partitioned}`);
      await q.query(`DROP TABLE ${partitioned}`);
      await addKeysAndIndexes(q, r);
    }
  }
}
