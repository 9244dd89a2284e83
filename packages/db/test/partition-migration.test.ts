import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createDataSource, ensureDatabaseExists, MIGRATIONS, runMigrations } from '@uptime/db';

/**
 * The partitioning migration on a database that already has results: run on a database of its
 * own, migrated up to the migration before it, so the shared test database is left alone.
 */
describe('migration 1732270006000 (daily partitions of check_results)', () => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `${url.pathname}_partition_migration`;
  const dbUrl = url.toString();
  const admin = (): Client => new Client({ connectionString: new URL('/postgres', dbUrl).toString() });

  afterAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
    await c.end();
  });

  it('moves existing results into the partition of their day and back, keeping ids and the sequence', async () => {
    await ensureDatabaseExists(dbUrl);
    const before = MIGRATIONS.findIndex((m) => m.name === 'PartitionCheckResults1732270006000');
    expect(before).toBeGreaterThan(0);
    const old = createDataSource(dbUrl);
    old.setOptions({ migrations: MIGRATIONS.slice(0, before) });
    await old.initialize();
    await runMigrations(old, dbUrl);
    const [user] = await old.query(`INSERT INTO users (email) VALUES ('p@example.test') RETURNING id`);
    const [monitor] = await old.query(`INSERT INTO monitors (owner_id, name, url, timeout, check_interval) VALUES ($1, 'm', 'https://example.test', 30, 60) RETURNING id`, [
      user.id,
    ]);
    const rows: { id: string }[] = await old.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok) VALUES ($1, '2020-02-29T23:59:59Z', 5, true), ($1, now(), 7, false) RETURNING id`,
      [monitor.id],
    );
    await old.destroy();

    const ds: DataSource = createDataSource(dbUrl);
    await ds.initialize();
    try {
      await runMigrations(ds, dbUrl);
      const moved: { id: string; part: string; start_lag_ms: number }[] = await ds.query(
        `SELECT id::text, tableoid::regclass::text AS part, start_lag_ms FROM check_results ORDER BY scheduled_at`,
      );
      const today = new Date().toISOString().slice(0, 10).replace(/-/g, '');
      expect(moved).toEqual([
        { id: rows[0]!.id, part: 'check_results_p20200229', start_lag_ms: 5 },
        { id: rows[1]!.id, part: `check_results_p${today}`, start_lag_ms: 7 },
      ]);
      const [fresh] = await ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, now() + interval '1 second', true) RETURNING id`, [monitor.id]);
      expect(Number(fresh.id)).toBeGreaterThan(Number(rows[1]!.id));

      // Later migrations are undone first; the one under test is the last undone.
      const isPartitionApplied = async (): Promise<boolean> =>
        (await ds.query(`SELECT 1 FROM migrations WHERE name = 'PartitionCheckResults1732270006000'`)).length > 0;
      while (await isPartitionApplied()) await ds.undoLastMigration({ transaction: 'each' });
      const back: { kind: string }[] = await ds.query(`SELECT relkind AS kind FROM pg_class WHERE relname = 'check_results'`);
      expect(back).toEqual([{ kind: 'r' }]);
      expect((await ds.query(`SELECT count(*)::int AS n FROM check_results`))[0].n).toBe(3);
      const [after] = await ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, now() + interval '2 seconds', true) RETURNING id`, [monitor.id]);
      expect(Number(after.id)).toBeGreaterThan(Number(fresh.id));
      await ds.query(`DELETE FROM monitors`);
      expect((await ds.query(`SELECT count(*)::int AS n FROM check_results`))[0].n).toBe(0);
    } finally {
      await ds.destroy();
    }
  });
});
