import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import { ensureResultPartitions, listResultPartitions, type DataSource } from '@uptime/db';
import { applyRetention } from '../src/maintenance/retention';
import { PARTITION_DAYS_AHEAD, runMaintenance } from '../src/maintenance/maintenance-job';

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
  it('drops the raw results of whole days past the retention, deletes stray ones in chunks, and keeps daily rollups', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    const now = new Date('2026-11-22T12:00:00.000Z');
    const ago = (days: number): Date => new Date(now.getTime() - days * DAY);
    // Days 95 to 89 ago have their own partitions; 120 and 200 days ago land in the default one.
    await ensureResultPartitions(ds, ago(95), ago(89));
    for (const days of [1, 89, 90.25, 91, 95, 120, 200]) {
      const [check] = await ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, $2, true) RETURNING id`, [m.id, ago(days)]);
      await ds.query(`INSERT INTO check_location_results (check_result_id, location, ok, checked_at) VALUES ($1, 'eu', true, $2)`, [check.id, ago(days)]);
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

    const report = await applyRetention(ds, { resultRetentionDays: 90, auditRetentionDays: 90 }, now, 2);

    // The cutoff is the start of the UTC day 90 days ago (2026-08-24): that day stays whole.
    expect(report).toEqual({
      results: 2,
      resultPartitions: ['check_results_p20260819', 'check_results_p20260820', 'check_results_p20260821', 'check_results_p20260822', 'check_results_p20260823'],
      locationResults: 4,
      rollups5m: 2,
      rollups1h: 1,
      auditEntries: 0,
    });
    const left: { scheduled_at: Date }[] = await ds.query('SELECT scheduled_at FROM check_results ORDER BY scheduled_at');
    expect(left.map((r) => r.scheduled_at.toISOString())).toEqual([ago(90.25), ago(89), ago(1)].map((d) => d.toISOString()));
    expect(await count('check_location_results')).toBe(3);
    const names = (await listResultPartitions(ds)).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['check_results_p20260824', 'check_results_p20260825']));
    expect(names).not.toContain('check_results_p20260823');
    expect([await count('check_rollups_5m'), await count('check_rollups_1h'), await count('check_rollups_1d')]).toEqual([2, 2, 2]);
    expect(await applyRetention(ds, { resultRetentionDays: 90, auditRetentionDays: 90 }, now, 2)).toEqual({ results: 0, resultPartitions: [], locationResults: 0, rollups5m: 0, rollups1h: 0, auditEntries: 0 });
  });
});

describe('maintenance round', () => {
  it('creates the partitions from yesterday to a week ahead, and compacts the closed days', async () => {
    const now = new Date('2027-03-10T00:30:00.000Z');
    const report = await runMaintenance(ds, 90, now);
    const expected = Array.from({ length: PARTITION_DAYS_AHEAD + 2 }, (_, i) => `check_results_p202703${String(9 + i).padStart(2, '0')}`);
    expect(report.partitions).toEqual({ created: expected, skipped: [] });
    const partitions = new Map((await listResultPartitions(ds)).map((p) => [p.name, p]));
    // 2027-03-09 ended 30 minutes ago: a late check may still record; it is compacted an hour after.
    expect(partitions.get('check_results_p20270308')).toBeUndefined();
    expect(partitions.get('check_results_p20270309')?.compacted).toBe(false);
    expect(report.compacted).not.toContain('check_results_p20270309');
    expect((await runMaintenance(ds, 90, new Date('2027-03-10T01:00:00.000Z'))).compacted).toContain('check_results_p20270309');
    expect((await listResultPartitions(ds)).find((p) => p.name === 'check_results_p20270309')?.compacted).toBe(true);
    expect((await runMaintenance(ds, 90, new Date('2027-03-10T01:00:00.000Z'))).compacted).toEqual([]);
  });
});
