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
