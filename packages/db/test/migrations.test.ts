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
      expect.arrayContaining(['users', 'api_tokens', 'monitors', 'check_results', 'check_rollups_5m', 'incidents', 'status_events', 'notifications', 'email_deliveries']),
    );
  });

  it('adds histogram arrays element-wise', async () => {
    const [row] = await ds.query(`SELECT int_array_add('{1,2,3}'::int[], '{10,0,5}'::int[]) AS sum`);
    expect(row.sum).toEqual([11, 2, 8]);
  });
});
