import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { DAY_MS, dropTimePartitionsBefore, ensureTimePartitions, openDatabase, ROLLUP_PARTITIONING, type DataSource } from '@uptime/db';
// Relative imports: the root package depends on no service; the benches run their code in-process.
import { deleteOldChunk } from '../services/api/src/maintenance/retention.repository';
import { RETENTION_CHUNK } from '../services/api/src/maintenance/retention';
import { cpuSeconds } from './capacity/process-stats';

/**
 * `pnpm bench:rollup-retention [--monitors 1000]`: what retention costs Postgres for one UTC day
 * of five-minute rollups (288 rows a monitor), the two ways: deleting the day's rows 10,000 at a
 * time from one table, as retention did before the rollups were partitioned, and the VACUUM that
 * must then reclaim them; against dropping the day's partition (docs/scaling.md, "What saturates
 * first", item 2). Each table holds two days, the one that goes and the next, which stays.
 *
 * Figures are the CPU seconds of the one Postgres backend running the statements (from /proc, in
 * 10 ms ticks) and the WAL written, neither of which depends on what else the machine runs; wall
 * time is printed too, but on a shared machine it says little.
 */
const { values } = parseArgs({ options: { monitors: { type: 'string', default: '1000' } } });
const monitors = Number(values.monitors);
const FIVE_MINUTES = ROLLUP_PARTITIONING.find((t) => t.table === 'check_rollups_5m')!;
const PLAIN = 'bench_rollups_5m_unpartitioned';
// A day long past anything the maintenance job partitions.
const DAY = new Date('2011-01-10T00:00:00.000Z');
const NEXT = new Date(DAY.getTime() + DAY_MS);

interface Cost {
  cpu: number;
  wall: number;
  walBytes: number;
  statements: number;
}

async function measure(ds: DataSource, pid: number, run: () => Promise<number>): Promise<Cost> {
  const lsn = async (): Promise<string> => (await ds.query(`SELECT pg_current_wal_lsn()::text AS l`))[0].l;
  const [cpu0, wall0, lsn0] = [cpuSeconds(pid), performance.now(), await lsn()];
  const statements = await run();
  const [cpu1, wall1, lsn1] = [cpuSeconds(pid), performance.now(), await lsn()];
  const [{ bytes }] = await ds.query(`SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes`, [lsn1, lsn0]);
  return { cpu: cpu1 - cpu0, wall: (wall1 - wall0) / 1000, walBytes: Number(bytes), statements };
}

/** Two days of rows for every monitor into `table`: the day that goes and the one after. */
const fill = (ds: DataSource, table: string): Promise<unknown> =>
  ds.query(
    `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
     SELECT m.id, b, 10, 10, 10, 1200, 80, 400, '{0,3,4,2,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}'
       FROM monitors m, generate_series($1::timestamptz, $2::timestamptz - interval '5 minutes', interval '5 minutes') AS b`,
    [DAY, new Date(NEXT.getTime() + DAY_MS)],
  );

async function main(): Promise<void> {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/uptime_bench_rollup_retention_${Date.now().toString(36)}`;
  // One connection, so every statement runs in the backend whose CPU is read.
  const ds = await openDatabase(url.toString(), { poolSize: 1, applicationName: 'bench-rollup-retention' });
  try {
    const [{ pid }] = await ds.query(`SELECT pg_backend_pid() AS pid`);
    const [user] = await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`);
    await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval) SELECT $1, 'm' || i, 'https://example.test', 30, 60 FROM generate_series(1, $2::int) i`,
      [user.id, monitors],
    );
    await ensureTimePartitions(ds, FIVE_MINUTES, DAY, NEXT);
    await fill(ds, 'check_rollups_5m');
    // The table as it was before migration 1796520620000: one heap, its key and bucket indexes.
    await ds.query(`CREATE TABLE ${PLAIN} (LIKE check_rollups_5m INCLUDING ALL)`);
    await ds.query(`ALTER TABLE ${PLAIN} ADD FOREIGN KEY (monitor_id) REFERENCES monitors (id) ON DELETE CASCADE`);
    await fill(ds, PLAIN);
    await ds.query(`VACUUM ANALYZE ${PLAIN}, check_rollups_5m`);
    await ds.query(`CHECKPOINT`);

    const rows = monitors * 288;
    const deleted = await measure(ds, pid, async () => {
      let statements = 0;
      for (;;) {
        statements += 1;
        if ((await deleteOldChunk(ds, PLAIN, 'bucket', NEXT, RETENTION_CHUNK)) < RETENTION_CHUNK) return statements;
      }
    });
    const vacuumed = await measure(ds, pid, async () => {
      await ds.query(`VACUUM ${PLAIN}`);
      return 1;
    });
    const dropped = await measure(ds, pid, async () => {
      const { dropped: names } = await dropTimePartitionsBefore(ds, FIVE_MINUTES, NEXT);
      if (names.length !== 1) throw new Error(`expected one partition dropped, got ${names.join(', ')}`);
      return 1;
    });
    const left = await ds.query(`SELECT (SELECT count(*) FROM ${PLAIN})::int AS plain, (SELECT count(*) FROM check_rollups_5m)::int AS parted`);
    if (left[0].plain !== rows || left[0].parted !== rows) throw new Error(`the kept day lost rows: ${JSON.stringify(left[0])}`);

    const line = (name: string, c: Cost): string =>
      `| ${name} | ${c.statements} | ${c.cpu.toFixed(2)} s | ${((c.cpu / rows) * 1e6).toFixed(2)} µs | ${(c.walBytes / 1048576).toFixed(1)} MB | ${c.wall.toFixed(2)} s |`;
    process.stdout.write(
      [
        `rollup retention, one UTC day of 5-minute rollups: ${monitors} monitors x 288 = ${rows.toLocaleString('en')} rows (the table holds two days)`,
        `Postgres backend CPU from /proc (10 ms ticks); wall time on a shared machine is only indicative`,
        '',
        '| Way | Statements | Backend CPU | CPU per row | WAL | Wall |',
        '|---|---|---|---|---|---|',
        line(`DELETE in chunks of ${RETENTION_CHUNK.toLocaleString('en')}`, deleted),
        line('VACUUM after it', vacuumed),
        line('DROP TABLE of the partition', dropped),
        '',
      ].join('\n'),
    );
  } finally {
    await ds.destroy();
    const admin = new Client({ connectionString: new URL('/postgres', url).toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}"`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
