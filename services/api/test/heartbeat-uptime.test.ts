import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { LATENCY_BUCKET_COUNT, type User } from '@uptime/db';
import { useApiHarness } from './support/api-harness';
import { heartbeatIdsAmong, heartbeatUptimes } from '../src/monitor-stats/heartbeat-uptime.repository';

const h = useApiHarness();
let auth: string;
let user: User;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const api = (method: 'post' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);

/** One success and one failure in the rollups of the current hour: 50 % when counted. */
async function halfFailedResults(monitorId: number, now: number): Promise<void> {
  for (const [table, step] of [['check_rollups_5m', 300_000], ['check_rollups_1h', HOUR], ['check_rollups_1d', DAY]] as const) {
    await h.ds.query(`INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 2, 1, 0, 0, $3)`, [
      monitorId,
      new Date(Math.floor(now / step) * step),
      new Array<number>(LATENCY_BUCKET_COUNT).fill(0),
    ]);
  }
}

describe('uptime of a heartbeat monitor', () => {
  it('is the share of time it was not offline, from its creation, while an http monitor keeps successes over checks', async () => {
    const now = Date.now();
    const created = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 });
    const id: number = created.body.data.id;
    await h.ds.query(`UPDATE monitors SET created_at = $2 WHERE id = $1`, [id, new Date(now - 10 * DAY)]);
    const http = await aMonitor(h.ds, user);
    for (const m of [id, http.id]) {
      await halfFailedResults(m, now);
      // Offline 3 h, 6 h to 3 h ago, and again for the last 30 minutes (still open).
      await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, $3), ($1, $4, NULL)`, [
        m,
        new Date(now - 6 * HOUR),
        new Date(now - 3 * HOUR),
        new Date(now - HOUR / 2),
      ]);
    }
    const offline = 3.5 * HOUR;
    const expected = { '24h': 100 * (1 - offline / DAY), '7d': 100 * (1 - offline / (7 * DAY)), '30d': 100 * (1 - offline / (10 * DAY)) };

    const stats = await api('get', `/monitors/${id}/stats`);
    expect(stats.status).toBe(200);
    for (const w of ['24h', '7d', '30d'] as const) expect(stats.body.data.uptime[w]).toBeCloseTo(expected[w], 1);
    const one = await api('get', `/monitors/${id}`);
    expect(one.body.data.uptime_24h).toBeCloseTo(expected['24h'], 1);
    expect(one.body.data.uptime_30d).toBeCloseTo(expected['30d'], 1);

    const other = await api('get', `/monitors/${http.id}/stats`);
    expect(other.body.data.uptime).toEqual({ '24h': 50, '7d': 50, '30d': 50 });
  });

  it('counts on the dashboard as time for the heartbeats only, however the ids are given', async () => {
    const now = Date.now();
    const created = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 });
    const id: number = created.body.data.id;
    await h.ds.query(`UPDATE monitors SET created_at = $2 WHERE id = $1`, [id, new Date(now - 10 * DAY)]);
    const http = await aMonitor(h.ds, user);
    for (const m of [id, http.id]) {
      await halfFailedResults(m, now);
      // Offline the last 6 hours (still open): a quarter of a day.
      await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, NULL)`, [m, new Date(now - 6 * HOUR)]);
    }

    const dashboard = await api('get', '/dashboard');
    expect(dashboard.status).toBe(200);
    // The heartbeat 75 % (time), the http monitor 50 % (checks): their mean.
    expect(dashboard.body.data.uptime['24h']).toBeCloseTo((75 + 50) / 2, 1);

    // Given an http monitor's id, the time-based uptime leaves it out, whoever asks.
    const uptimes = await heartbeatUptimes(h.ds, [id, http.id], new Date(now));
    expect([...uptimes.keys()]).toEqual([id]);
    expect(uptimes.get(id)!['24h']).toBeCloseTo(75, 1);
    expect(await heartbeatIdsAmong(h.ds, [http.id, id])).toEqual([id]);
  });

  it('shows on a status page and a badge daily bars and a 90-day figure of time, not of its results', async () => {
    const now = Date.now();
    const today = Math.floor(now / DAY) * DAY;
    const created = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 });
    const id: number = created.body.data.id;
    await h.ds.query(`UPDATE monitors SET created_at = $2 WHERE id = $1`, [id, new Date(now - 10 * DAY)]);
    // Results that would read 50 % if counted, yesterday and today.
    for (const day of [today - DAY, today]) {
      await h.ds.query(`INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 2, 1, 0, 0, '{}')`, [id, new Date(day)]);
    }
    // Offline 12 hours of yesterday.
    await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, $3)`, [id, new Date(today - DAY + 6 * HOUR), new Date(today - DAY + 18 * HOUR)]);

    const page = await api('post', '/status-pages').send({ slug: 'backups', title: 'Backups', monitor_ids: [id] });
    expect(page.status).toBe(201);
    const status = await request(h.app).get('/api/v1/public/status-pages/backups');
    expect(status.status).toBe(200);
    const [shown] = status.body.data.monitors as { uptime_90d: number | null; days: { date: string; uptime: number | null }[] }[];
    const day = (ms: number) => shown!.days.find((d) => d.date === new Date(ms).toISOString().slice(0, 10));
    expect(shown!.days).toHaveLength(90);
    expect(day(today - DAY)!.uptime).toBe(50);
    expect(day(today)!.uptime).toBe(100);
    // Before the monitor existed: no data, as a new http monitor's days.
    expect(day(today - 20 * DAY)!.uptime).toBeNull();
    // 12 hours of the 10 days since its creation.
    expect(shown!.uptime_90d).toBeCloseTo(95, 1);

    const badge = await api('post', `/monitors/${id}/badge`);
    expect(badge.status).toBe(200);
    const svg = await request(h.app)
      .get(`${new URL(badge.body.data.uptime_url as string).pathname}?period=90d`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => done(null, text));
      });
    expect(svg.status).toBe(200);
    expect(String(svg.body)).toContain('uptime 90d: 95.00%');
  });
});

/** The share of [from, to] outside the spans, × 100: the time-based figure, computed apart from the service. */
function notOffline(from: number, to: number, spans: readonly [number, number][]): number {
  const down = spans.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
  return 100 * (1 - down / (to - from));
}

describe('GET /monitors/{id}/stats of a heartbeat (docs/statistics.md)', () => {
  it('measures the period and every bucket in time not offline, counts its results, and leaves an http monitor as it was', async () => {
    const now = Date.now();
    const created = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 });
    const id: number = created.body.data.id;
    const since = now - 10 * DAY;
    await h.ds.query(`UPDATE monitors SET created_at = $2 WHERE id = $1`, [id, new Date(since)]);
    const http = await aMonitor(h.ds, user);
    // Offline 6 h to 3 h ago, and again for the last 30 minutes (still open): 3.5 h.
    const offline: [number, number][] = [
      [now - 6 * HOUR, now - 3 * HOUR],
      [now - HOUR / 2, Number.MAX_SAFE_INTEGER],
    ];
    for (const m of [id, http.id]) {
      // One success and one failure this hour: 50 % if they were counted as uptime.
      await halfFailedResults(m, now);
      await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, $3), ($1, $4, NULL)`, [
        m,
        new Date(offline[0]![0]),
        new Date(offline[0]![1]),
        new Date(offline[1]![0]),
      ]);
    }

    for (const [period, granularity, step] of [['24h', '5m', 300_000], ['7d', '1h', HOUR], ['90d', '1d', DAY]] as const) {
      const res = await api('get', `/monitors/${id}/stats?period=${period}&granularity=${granularity}`);
      expect(res.status).toBe(200);
      const s = res.body.data;
      const start = now - (period === '24h' ? DAY : period === '7d' ? 7 * DAY : 90 * DAY);
      // The period's figure: the same time as the uptime windows (24 h equals uptime['24h']).
      expect(s.period_uptime).toBeCloseTo(notOffline(Math.max(start, since), now, offline), 1);
      if (period === '24h') expect(s.period_uptime).toBeCloseTo(s.uptime['24h'], 1);
      // The counts stay the results recorded: one success, one failure.
      expect(s.checks).toEqual({ total: 2, successful: 1, failed: 1 });
      const series = s.series as { timestamp: string; uptime: number | null; checks: number }[];
      expect(series.reduce((n, b) => n + b.checks, 0)).toBe(2);
      let offlineBuckets = 0;
      for (const b of series) {
        const t = Date.parse(b.timestamp);
        if (t + step <= since) {
          // Before the monitor existed: no data.
          expect(b.uptime).toBeNull();
          continue;
        }
        const expected = notOffline(Math.max(t, since), Math.min(t + step, now), offline);
        expect(b.uptime).toBeCloseTo(expected, 1);
        if (expected < 100) offlineBuckets++;
      }
      expect(offlineBuckets).toBeGreaterThan(0);
      // The bucket of now holds the success and the failure (50 % if counted), yet its uptime is
      // the time: all offline at 5 minutes (within the open incident), partly at an hour or a day.
      const last = series[series.length - 1]!;
      expect(last.checks).toBe(2);
      expect(last.uptime).toBeLessThan(100);
      if (granularity === '5m') expect(last.uptime).toBe(0);
    }

    // An http monitor: successes over checks, and no period_uptime.
    const other = await api('get', `/monitors/${http.id}/stats?period=24h&granularity=1h`);
    expect(other.status).toBe(200);
    expect(other.body.data).not.toHaveProperty('period_uptime');
    expect(other.body.data.checks).toEqual({ total: 2, successful: 1, failed: 1 });
    expect(other.body.data.series[other.body.data.series.length - 1].uptime).toBe(50);
  });
  it('at granularity check, draws each result at 100 or 0 by whether the monitor was offline then', async () => {
    const now = Date.now();
    const created = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 3600 });
    const id: number = created.body.data.id;
    await h.ds.query(`UPDATE monitors SET created_at = $2 WHERE id = $1`, [id, new Date(now - DAY)]);
    // A missed deadline 2 h ago opens the downtime; a success 1 h ago ends it; a success 30 min ago.
    await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, $3)`, [id, new Date(now - 2 * HOUR), new Date(now - HOUR)]);
    for (const [at, ok] of [[now - 2 * HOUR, false], [now - HOUR, true], [now - HOUR / 2, true]] as const) {
      await h.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, response_time) VALUES ($1, $2, $3, NULL)`, [id, new Date(at), ok]);
    }
    const res = await api('get', `/monitors/${id}/stats?period=3h`);
    expect(res.status).toBe(200);
    expect(res.body.data.granularity).toBe('check');
    expect(res.body.data.series.map((p: { uptime: number | null; checks: number }) => [p.uptime, p.checks])).toEqual([
      [0, 1],
      [100, 1],
      [100, 1],
    ]);
    expect(res.body.data.checks).toEqual({ total: 3, successful: 2, failed: 1 });
    expect(res.body.data.period_uptime).toBeCloseTo(100 * (2 / 3), 1);
  });
});
