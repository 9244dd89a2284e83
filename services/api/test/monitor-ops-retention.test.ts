import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import type { DataSource } from '@uptime/db';
import { applyRetention } from '../src/maintenance/retention';

let ds: DataSource;

beforeAll(async () => {
  ds = await openTestDatabase();
});
afterAll(async () => {
  await ds.destroy();
});
beforeEach(async () => {
  await resetDatabase(ds);
});

const DAY = 86_400_000;
const count = async (table: string): Promise<number> => (await ds.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

describe('retention', () => {
  it('deletes old raw results and fine rollups in chunks, and keeps daily rollups', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    const now = new Date('2026-11-22T12:00:00.000Z');
    const ago = (days: number): Date => new Date(now.getTime() - days * DAY);
    for (const days of [1, 89, 91, 95, 120, 200]) {
      await ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, $2, true)`, [m.id, ago(days)]);
    }
    for (const [table, days] of [
      ['check_rollups_5m', [1, 34, 36, 40]],
      ['check_rollups_1h', [1, 399, 401]],
      ['check_rollups_1d', [1, 500]],
    ] as const) {
      for (const d of days) {
        await ds.query(`INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 1, 1, 0, 0, '{}')`, [m.id, ago(d)]);
      }
    }
    const report = await applyRetention(ds, 90, now, 2);
    expect(report).toEqual({ results: 4, rollups5m: 2, rollups1h: 1 });
    const left: { scheduled_at: Date }[] = await ds.query('SELECT scheduled_at FROM check_results ORDER BY scheduled_at');
    expect(left.map((r) => r.scheduled_at.toISOString())).toEqual([ago(89).toISOString(), ago(1).toISOString()]);
    expect([await count('check_rollups_5m'), await count('check_rollups_1h'), await count('check_rollups_1d')]).toEqual([2, 2, 2]);
    expect(await applyRetention(ds, 90, now, 2)).toEqual({ results: 0, rollups5m: 0, rollups1h: 0 });
  });
});
