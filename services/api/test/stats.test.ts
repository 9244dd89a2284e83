import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { LATENCY_BUCKET_COUNT, latencyBucketIndex, type User } from '@uptime/db';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let user: User;
let otherAuth: string;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const floorTo = (t: number, step: number): number => Math.floor(t / step) * step;
const stats = (id: number, query = '', as = auth) => request(h.app).get(`/api/v1/monitors/${id}/stats${query}`).set('Authorization', as);

interface Check {
  at: number;
  ok: boolean;
  rt: number | null;
}

/** Writes raw results and the rollups the check-worker would have written for them. */
async function insertChecks(monitorId: number, checks: Check[]): Promise<void> {
  for (const c of checks) {
    await h.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, response_time) VALUES ($1, $2, $3, $4)`, [monitorId, new Date(c.at), c.ok, c.rt]);
  }
  for (const [table, step] of [['check_rollups_5m', 5 * MIN], ['check_rollups_1h', HOUR], ['check_rollups_1d', DAY]] as const) {
    const buckets = new Map<number, Check[]>();
    for (const c of checks) buckets.set(floorTo(c.at, step), [...(buckets.get(floorTo(c.at, step)) ?? []), c]);
    for (const [bucket, list] of buckets) {
      const rts = list.map((c) => c.rt).filter((rt): rt is number => rt !== null);
      const hist = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
      for (const rt of rts) hist[latencyBucketIndex(rt)]! += 1;
      await h.ds.query(
        `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [monitorId, new Date(bucket), list.length, list.filter((c) => c.ok).length, rts.length, rts.reduce((a, b) => a + b, 0), rts.length ? Math.min(...rts) : null, rts.length ? Math.max(...rts) : null, hist],
      );
    }
  }
}

/** 36 checks every 10 minutes over the last 6 hours (every 4th failed, two slow ones), one 3 days ago (failed), one 10 days ago. */
function knownHistory(now: number): Check[] {
  const base = floorTo(now, 5 * MIN);
  const recent = Array.from({ length: 36 }, (_v, i) => {
    const k = i + 1;
    const ok = k % 4 !== 0;
    return { at: base - k * 10 * MIN, ok, rt: ok ? (k === 1 ? 1200 : k === 2 ? 450 : 100 + k) : null };
  });
  return [...recent, { at: base - 3 * DAY, ok: false, rt: null }, { at: base - 10 * DAY, ok: true, rt: 80 }];
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

describe('GET /monitors/:id/stats', () => {
  it('answers exact figures from a known history', async () => {
    const m = await aMonitor(h.ds, user);
    const now = Date.now();
    const history = knownHistory(now);
    await insertChecks(m.id, history);
    await h.ds.query(
      `INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES
         ($1, $2, $3), ($1, $4, $5), ($1, $6, NULL), ($1, $7, $8)`,
      [m.id, new Date(now - 2 * HOUR), new Date(now - 90 * MIN), new Date(now - 25 * HOUR), new Date(now - 23 * HOUR), new Date(now - 10 * MIN), new Date(now - 30 * HOUR), new Date(now - 26 * HOUR)],
    );

    const res = await stats(m.id);
    expect(res.status).toBe(200);
    expectMeta(res);
    const recent = history.slice(0, 36);
    const rts = recent.map((c) => c.rt).filter((rt): rt is number => rt !== null).sort((a, b) => a - b);
    expect(res.body.data).toMatchObject({
      period: '24h',
      granularity: '5m',
      uptime: { '24h': 75, '7d': round2((27 / 37) * 100), '30d': round2((28 / 38) * 100) },
      checks: { total: 36, successful: 27, failed: 9 },
      response_times: { avg: Math.round(rts.reduce((a, b) => a + b, 0) / rts.length), min: 103, max: 1200 },
    });
    // p95 is read from the histogram: within the bucket of the exact (nearest-rank) value.
    const exactP95 = rts[Math.ceil(0.95 * rts.length) - 1]!;
    expect(exactP95).toBe(450);
    expect(latencyBucketIndex(res.body.data.response_times.p95)).toBe(latencyBucketIndex(exactP95));
    expect(res.body.data.response_times.p95).toBeGreaterThanOrEqual(exactP95);
    // 30 min + 1 h of the one that began before the period + the open one's 10 min.
    expect(res.body.data.incidents.count).toBe(3);
    expect(Math.abs(res.body.data.incidents.total_downtime - 6000)).toBeLessThanOrEqual(1);

    const week = await stats(m.id, '?period=7d');
    expect(week.body.data.checks).toEqual({ total: 37, successful: 27, failed: 10 });
    expect(week.body.data.incidents.count).toBe(4);
    const quarter = await stats(m.id, '?period=90d');
    expect(quarter.body.data.checks).toEqual({ total: 38, successful: 28, failed: 10 });
    expect(quarter.body.data.response_times).toMatchObject({ min: 80, max: 1200 });
  });

  it.each([
    ['?period=24h', '5m', 5 * MIN, DAY],
    ['?period=24h&granularity=1h', '1h', HOUR, DAY],
    ['?period=24h&granularity=1d', '1d', DAY, DAY],
    ['?period=7d', '1h', HOUR, 7 * DAY],
    ['?period=7d&granularity=5m', '5m', 5 * MIN, 7 * DAY],
    ['?period=30d', '1h', HOUR, 30 * DAY],
    ['?period=90d', '1d', DAY, 90 * DAY],
  ])('answers %s as one bucket per %s step, aligned, empty buckets included', async (query, granularity, step, period) => {
    const m = await aMonitor(h.ds, user);
    const before = Date.now();
    const history = knownHistory(before);
    await insertChecks(m.id, history);
    const res = await stats(m.id, query);
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.body.data.granularity).toBe(granularity);
    const series: { timestamp: string; uptime: number | null; avg_response_time: number | null; checks: number }[] = res.body.data.series;
    const times = series.map((b) => Date.parse(b.timestamp));
    expect(series).toHaveLength(period / step + 1);
    expect([floorTo(before, step), floorTo(after, step)]).toContain(times.at(-1));
    expect(times[0]).toBe(times.at(-1)! - period);
    times.forEach((t, i) => expect(t).toBe(times[0]! + i * step));
    const inRange = history.filter((c) => c.at >= times[0]!);
    expect(series.reduce((a, b) => a + b.checks, 0)).toBe(inRange.length);
    for (const b of series) {
      const inBucket = history.filter((c) => floorTo(c.at, step) === Date.parse(b.timestamp));
      const rts = inBucket.map((c) => c.rt).filter((rt): rt is number => rt !== null);
      expect(b).toEqual({
        timestamp: new Date(Date.parse(b.timestamp)).toISOString(),
        checks: inBucket.length,
        uptime: inBucket.length ? round2((inBucket.filter((c) => c.ok).length / inBucket.length) * 100) : null,
        avg_response_time: rts.length ? Math.round(rts.reduce((x, y) => x + y, 0) / rts.length) : null,
        maintenance: false,
      });
    }
  });

  it.each([
    ['1h', HOUR],
    ['3h', 3 * HOUR],
    ['6h', 6 * HOUR],
  ])('answers %s check by check by default, the figures counting the same checks as the series', async (period, length) => {
    const m = await aMonitor(h.ds, user);
    const before = Date.now();
    const history = knownHistory(before);
    await insertChecks(m.id, history);
    // A check in a maintenance window 5 minutes ago, failed: drawn, counted nowhere.
    await h.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, response_time, maintenance) VALUES ($1, $2, false, 900, true)`, [
      m.id,
      new Date(before - 5 * MIN),
    ]);
    const res = await stats(m.id, `?period=${period}`);
    expect(res.status).toBe(200);
    expect(res.body.data.granularity).toBe('check');
    const inPeriod = history.filter((c) => c.at >= before - length).sort((a, b) => a.at - b.at);
    const expected = [...inPeriod.map((c) => ({ at: c.at, ok: c.ok, rt: c.rt, maintenance: false })), { at: before - 5 * MIN, ok: false, rt: 900, maintenance: true }].sort(
      (a, b) => a.at - b.at,
    );
    expect(res.body.data.series).toEqual(
      expected.map((c) => ({
        timestamp: new Date(c.at).toISOString(),
        checks: c.maintenance ? 0 : 1,
        uptime: c.maintenance ? null : c.ok ? 100 : 0,
        avg_response_time: c.maintenance ? null : c.rt,
        maintenance: c.maintenance,
      })),
    );
    const up = inPeriod.filter((c) => c.ok).length;
    expect(res.body.data.checks).toEqual({ total: inPeriod.length, successful: up, failed: inPeriod.length - up });
    const rts = inPeriod.map((c) => c.rt).filter((rt): rt is number => rt !== null).sort((a, b) => a - b);
    expect(res.body.data.response_times).toEqual({
      avg: Math.round(rts.reduce((a, b) => a + b, 0) / rts.length),
      min: rts[0],
      max: rts.at(-1),
      // Exact here: the nearest-rank value itself.
      p95: rts[Math.ceil(0.95 * rts.length) - 1],
    });
  });

  it('answers an offline monitor\'s failed checks without response times as points of the series', async () => {
    const m = await aMonitor(h.ds, user);
    const now = Date.now();
    await insertChecks(m.id, [1, 2, 3].map((k) => ({ at: now - k * MIN, ok: false, rt: null })));
    const res = await stats(m.id, '?period=1h');
    expect(res.body.data.checks).toEqual({ total: 3, successful: 0, failed: 3 });
    expect(res.body.data.series).toHaveLength(3);
    expect(res.body.data.series.map((b: { uptime: number; checks: number }) => [b.uptime, b.checks])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
  });

  it('answers 6h at 5m as one bucket per step', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await stats(m.id, '?period=6h&granularity=5m');
    expect(res.status).toBe(200);
    expect(res.body.data.series).toHaveLength((6 * HOUR) / (5 * MIN) + 1);
  });

  it('answers nulls and zeros for a monitor without checks', async () => {
    const m = await aMonitor(h.ds, user);
    const res = await stats(m.id);
    expect(res.body.data).toMatchObject({
      uptime: { '24h': null, '7d': null, '30d': null },
      response_times: { avg: null, min: null, max: null, p95: null },
      incidents: { count: 0, total_downtime: 0 },
      checks: { total: 0, successful: 0, failed: 0 },
    });
    expect(res.body.data.series.every((b: { checks: number; uptime: null }) => b.checks === 0 && b.uptime === null)).toBe(true);
  });

  it.each([
    ['?period=90d&granularity=5m', 'granularity'],
    ['?period=30d&granularity=5m', 'granularity'],
    ['?period=1y', 'period'],
    ['?granularity=1m', 'granularity'],
    ['?period=24h&granularity=check', 'granularity'],
    ['?period=7d&granularity=check', 'granularity'],
  ])('refuses %s', async (query, field) => {
    const m = await aMonitor(h.ds, user);
    const res = await stats(m.id, query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
    if (query.includes('90d&granularity=5m')) expect(res.body.error.message).toMatch(/buckets/);
  });

  it("answers 404 for another user's monitor", async () => {
    const m = await aMonitor(h.ds, user);
    const res = await stats(m.id, '', otherAuth);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('MONITOR_NOT_FOUND');
  });
});
