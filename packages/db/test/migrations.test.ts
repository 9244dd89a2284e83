import { openTestDatabase, resetDatabase } from '@uptime/testing';
import type { DataSource } from '@uptime/db';

describe('database schema', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await openTestDatabase();
    await resetDatabase(ds);
  });
  afterAll(() => ds.destroy());

  it('has every table of the product after migrations', async () => {
    const rows: { tablename: string }[] = await ds.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    expect(rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(['users', 'api_tokens', 'monitors', 'check_results', 'check_rollups_5m', 'alerts', 'status_events', 'notifications', 'notification_deliveries', 'provider_pauses']),
    );
  });

  it('adds histogram arrays element-wise', async () => {
    const [row] = await ds.query(`SELECT int_array_add('{1,2,3}'::int[], '{10,0,5}'::int[]) AS sum`);
    expect(row.sum).toEqual([11, 2, 8]);
  });

  it('deletes the location results of a check with it, when the monitor goes', async () => {
    const [user] = await ds.query(`INSERT INTO users (email) VALUES ('cascade@example.test') RETURNING id`);
    const [monitor] = await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval) VALUES ($1, 'm', 'https://example.test', 30, 60) RETURNING id`,
      [user.id],
    );
    const [check] = await ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, now(), true) RETURNING id`,
      [monitor.id],
    );
    await ds.query(
      `INSERT INTO check_location_results (check_result_id, location, ok, checked_at) VALUES ($1, 'eu', true, now()), ($1, 'us', false, now())`,
      [check.id],
    );
    const count = async (): Promise<number> => (await ds.query(`SELECT count(*)::int AS n FROM check_location_results`))[0].n;
    expect(await count()).toBe(2);
    await ds.query(`DELETE FROM monitors WHERE id = $1`, [monitor.id]);
    expect(await count()).toBe(0);
  });
});
