import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import { ensureResultPartitions, ensureTimePartitions, listResultPartitions, listTimePartitions, ROLLUP_PARTITIONING, type DataSource } from '@uptime/db';
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
      agentRollups1h: 0,
      rollupPartitions: [],
      auditEntries: 0,
    });
    const left: { scheduled_at: Date }[] = await ds.query('SELECT scheduled_at FROM check_results ORDER BY scheduled_at');
    expect(left.map((r) => r.scheduled_at.toISOString())).toEqual([ago(90.25), ago(89), ago(1)].map((d) => d.toISOString()));
    expect(await count('check_location_results')).toBe(3);
    const names = (await listResultPartitions(ds)).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['check_results_p20260824', 'check_results_p20260825']));
    expect(names).not.toContain('check_results_p20260823');
    expect([await count('check_rollups_5m'), await count('check_rollups_1h'), await count('check_rollups_1d')]).toEqual([2, 2, 2]);
    expect(await applyRetention(ds, { resultRetentionDays: 90, auditRetentionDays: 90 }, now, 2)).toEqual({
      results: 0,
      resultPartitions: [],
      locationResults: 0,
      rollups5m: 0,
      rollups1h: 0,
      agentRollups1h: 0,
      rollupPartitions: [],
      auditEntries: 0,
    });
  });

  it('drops the rollup partitions whose whole day or month is past the retention, keeps the one holding the cutoff, and deletes old rows of the default partitions', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    // Years before anything the other tests partition, so no other partition is past these cutoffs.
    const now = new Date('2012-06-15T12:00:00.000Z');
    const ago = (days: number): Date => new Date(now.getTime() - days * DAY);
    const [fiveMinutes, hourly, agents] = ROLLUP_PARTITIONING;
    // 5-minute cutoff: 2012-05-11T12:00. Hourly cutoff (400 days): 2011-05-12T12:00.
    await ensureTimePartitions(ds, fiveMinutes, ago(37), ago(34));
    await ensureTimePartitions(ds, hourly, ago(430), ago(395));
    await ensureTimePartitions(ds, agents, ago(430), ago(395));
    const rollup = (table: string, days: number): Promise<unknown> =>
      ds.query(`INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 1, 1, 0, 0, '{}')`, [m.id, ago(days)]);
    const agentRollup = (days: number): Promise<unknown> =>
      ds.query(`INSERT INTO agent_check_rollups_1h (agent_id, bucket, checks, errors, failures, latency_count, latency_sum, latency_hist) VALUES (3, $1, 1, 0, 0, 0, 0, '{}')`, [ago(days)]);
    for (const days of [1, 34, 35.25, 36.5, 50]) await rollup('check_rollups_5m', days);
    for (const days of [1, 401, 420, 500]) {
      await rollup('check_rollups_1h', days);
      await agentRollup(days);
    }
    const where = async (table: string): Promise<string[]> =>
      (await ds.query(`SELECT tableoid::regclass::text AS part FROM ${table} ORDER BY bucket`)).map((r: { part: string }) => r.part);
    expect(await where('check_rollups_5m')).toEqual([
      'check_rollups_5m_default',
      'check_rollups_5m_p20120510',
      'check_rollups_5m_p20120511',
      'check_rollups_5m_p20120512',
      'check_rollups_5m_default',
    ]);

    const report = await applyRetention(ds, { resultRetentionDays: 90, auditRetentionDays: 90 }, now, 2);

    expect(report).toEqual({
      results: 0,
      resultPartitions: [],
      locationResults: 0,
      rollups5m: 1,
      rollups1h: 1,
      agentRollups1h: 1,
      rollupPartitions: ['check_rollups_5m_p20120509', 'check_rollups_5m_p20120510', 'check_rollups_1h_p201104', 'agent_check_rollups_1h_p201104'],
      auditEntries: 0,
    });
    // A row of the partition holding the cutoff stays until its whole day (or month) is past it.
    expect(await where('check_rollups_5m')).toEqual(['check_rollups_5m_p20120511', 'check_rollups_5m_p20120512', 'check_rollups_5m_default']);
    expect(await where('check_rollups_1h')).toEqual(['check_rollups_1h_p201105', 'check_rollups_1h_default']);
    expect(await where('agent_check_rollups_1h')).toEqual(['agent_check_rollups_1h_p201105', 'agent_check_rollups_1h_default']);
    expect((await listTimePartitions(ds, fiveMinutes)).map((p) => p.name)).toEqual(expect.arrayContaining(['check_rollups_5m_p20120511', 'check_rollups_5m_p20120512']));
    expect((await applyRetention(ds, { resultRetentionDays: 90, auditRetentionDays: 90 }, now, 2)).rollupPartitions).toEqual([]);
  });
});

describe('maintenance round', () => {
  it('creates the partitions from yesterday to a week ahead (and the rollups\' months two ahead), and compacts the closed days', async () => {
    // Years ahead, so no partition the migrations made around today's date is among these.
    const now = new Date('2037-03-10T00:30:00.000Z');
    const report = await runMaintenance(ds, 90, now);
    const expected = Array.from({ length: PARTITION_DAYS_AHEAD + 2 }, (_, i) => `check_results_p203703${String(9 + i).padStart(2, '0')}`);
    expect(report.partitions).toEqual({ created: expected, skipped: [] });
    // Rollups: 5-minute partitions over the same days; hourly ones (monitors' and agents') for this month and the next two.
    const months = ['203703', '203704', '203705'];
    expect(report.rollupPartitions).toEqual({
      created: [
        ...expected.map((name) => name.replace('check_results_', 'check_rollups_5m_')),
        ...months.map((month) => `check_rollups_1h_p${month}`),
        ...months.map((month) => `agent_check_rollups_1h_p${month}`),
      ],
      skipped: [],
    });
    expect((await runMaintenance(ds, 90, now)).rollupPartitions).toEqual({ created: [], skipped: [] });
    const partitions = new Map((await listResultPartitions(ds)).map((p) => [p.name, p]));
    // 2037-03-09 ended 30 minutes ago: a late check may still record; it is compacted an hour after.
    expect(partitions.get('check_results_p20370308')).toBeUndefined();
    expect(partitions.get('check_results_p20370309')?.compacted).toBe(false);
    expect(report.compacted).not.toContain('check_results_p20370309');
    expect((await runMaintenance(ds, 90, new Date('2037-03-10T01:00:00.000Z'))).compacted).toContain('check_results_p20370309');
    expect((await listResultPartitions(ds)).find((p) => p.name === 'check_results_p20370309')?.compacted).toBe(true);
    expect((await runMaintenance(ds, 90, new Date('2037-03-10T01:00:00.000Z'))).compacted).toEqual([]);
  });
});
