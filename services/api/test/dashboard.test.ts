import request from 'supertest';
import { publishCheckStats } from '@uptime/queues';
import { aCaller, aMonitor } from '@uptime/testing';
import type { User } from '@uptime/db';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let user: User;
let other: User;

beforeEach(async () => {
  ({ auth, user } = await aCaller(h.ds));
  ({ user: other } = await aCaller(h.ds));
});

const HOUR = 3_600_000;

/** One rollup row per table for the current hour/day, plus an hourly one 3 days back (7 d and 30 d only). */
async function rollups(monitorId: number, checks: number, successes: number, rtSum: number): Promise<void> {
  const now = Date.now();
  const rows: [string, number][] = [
    ['check_rollups_5m', Math.floor(now / 300_000) * 300_000],
    ['check_rollups_1h', Math.floor(now / HOUR) * HOUR],
    ['check_rollups_1d', Math.floor(now / (24 * HOUR)) * 24 * HOUR],
  ];
  for (const [table, bucket] of rows) {
    await h.ds.query(`INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, $3, $4, $3, $5, '{}')`, [
      monitorId,
      new Date(bucket),
      checks,
      successes,
      rtSum,
    ]);
  }
}

async function aNotification(owner: User, monitorId: number, startedAt: Date, incidentOpen: boolean): Promise<number> {
  const [incident] = await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, resolved_at) VALUES ($1, $2, $3) RETURNING id`, [
    monitorId,
    startedAt,
    incidentOpen ? null : new Date(),
  ]);
  if (incidentOpen) await h.ds.query(`UPDATE monitors SET open_incident_id = $2 WHERE id = $1`, [monitorId, incident.id]);
  const [n] = await h.ds.query(
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at) VALUES ($1, $2, $3, 'downtime', 'active', 'down', $4) RETURNING id`,
    [owner.id, monitorId, incident.id, startedAt],
  );
  return n.id;
}

describe('GET /dashboard', () => {
  it('summarises the caller’s monitors, uptime, incidents and latest notifications', async () => {
    const online = await aMonitor(h.ds, user, { status: 'online', name: 'API', url: 'https://api.example/' });
    const down = await aMonitor(h.ds, user, { status: 'offline', name: 'Shop', url: 'https://shop.example/' });
    const downToo = await aMonitor(h.ds, user, { status: 'offline', name: 'Blog', url: 'https://blog.example/' });
    await aMonitor(h.ds, user, { status: 'paused' });
    await aMonitor(h.ds, user, { status: 'warning' });
    await aMonitor(h.ds, user, { status: 'pending' });
    const foreign = await aMonitor(h.ds, other, { status: 'offline' });
    await rollups(online.id, 10, 10, 1000); // 100 %, 100 ms
    await rollups(down.id, 4, 1, 1200); // 25 %, 300 ms
    await rollups(foreign.id, 10, 0, 99999);
    const longest = new Date(Date.now() - 5 * HOUR);
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await aNotification(user, online.id, new Date(Date.now() - (10 - i) * HOUR), false));
    await aNotification(user, downToo.id, new Date(Date.now() - 2 * HOUR), true);
    await aNotification(user, down.id, longest, true);
    await aNotification(other, foreign.id, new Date(), true);

    const res = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(Object.keys(res.body.data).sort()).toEqual(['active_incidents', 'checks', 'down_monitors', 'monitors', 'recent_notifications', 'response_time_avg_24h', 'uptime']);
    expect(res.body.data.monitors).toEqual({ total: 6, online: 1, offline: 2, warning: 1, pending: 1, paused: 1 });
    expect(res.body.data.uptime).toEqual({ '24h': 62.5, '7d': 62.5, '30d': 62.5 });
    expect(res.body.data.response_time_avg_24h).toBe(200);
    expect(res.body.data.active_incidents).toBe(2);
    expect(res.body.data.down_monitors).toEqual([
      { id: down.id, name: 'Shop', url: 'https://shop.example/', since: longest.toISOString(), in_maintenance: false },
      { id: downToo.id, name: 'Blog', url: 'https://blog.example/', since: expect.any(String), in_maintenance: false },
    ]);
    const recent = res.body.data.recent_notifications;
    expect(recent).toHaveLength(5);
    expect(recent[0]).toMatchObject({ monitor_id: down.id, monitor_name: 'Shop', type: 'downtime', status: 'active', notification_method: 'email' });
    expect(Object.keys(recent[0]).sort()).toEqual(
      ['acknowledged', 'acknowledged_at', 'created_at', 'duration', 'email_logged_only', 'email_sent_at', 'error_details', 'id', 'message', 'monitor_id', 'monitor_name', 'monitor_url', 'notification_method', 'possible_duplicate', 'resolved_at', 'started_at', 'status', 'suppressed', 'suppressed_by', 'type'].sort(),
    );
    expect(recent.map((n: { id: number }) => n.id).slice(2)).toEqual([ids[5], ids[4], ids[3]]);
  });

  it('answers zeros and nulls for a user without monitors', async () => {
    const res = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(res.body.data).toEqual({
      monitors: { total: 0, online: 0, offline: 0, warning: 0, pending: 0, paused: 0 },
      uptime: { '24h': null, '7d': null, '30d': null },
      response_time_avg_24h: null,
      active_incidents: 0,
      down_monitors: [],
      recent_notifications: [],
      checks: { per_second: 0, lag_p99_seconds: null, late: false },
    });
  });

  it('sums the check-workers’ figures: rates added, the worst p99, late when one is', async () => {
    await aMonitor(h.ds, user, { status: 'online' });
    const prefix = h.config.redis.queuePrefix;
    const now = Date.now();
    await publishCheckStats(h.redis, prefix, 'worker-a', { perSecond: 310.5, lagP99Seconds: 0.2, late: false, at: now });
    await publishCheckStats(h.redis, prefix, 'worker-b', { perSecond: 290.2, lagP99Seconds: 4.5, late: true, at: now });
    // A worker that stopped reporting 20 s ago is gone: left out, and its field removed.
    await publishCheckStats(h.redis, prefix, 'worker-gone', { perSecond: 999, lagP99Seconds: 99, late: true, at: now - 20_000 });

    const res = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(res.body.data.checks).toEqual({ per_second: 600.7, lag_p99_seconds: 4.5, late: true });
    expect(await h.redis.hkeys(`${prefix}:check-stats`)).toEqual(expect.arrayContaining(['worker-a', 'worker-b']));
    expect(await h.redis.hexists(`${prefix}:check-stats`, 'worker-gone')).toBe(0);

    await publishCheckStats(h.redis, prefix, 'worker-b', { perSecond: 290.2, lagP99Seconds: 0.3, late: false, at: Date.now() });
    const calm = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(calm.body.data.checks).toEqual({ per_second: 600.7, lag_p99_seconds: 0.3, late: false });
  });

  it('says checks are late when monitors are active and no check-worker reports', async () => {
    await aMonitor(h.ds, user, { status: 'online' });
    const res = await request(h.app).get('/api/v1/dashboard').set('Authorization', auth);
    expect(res.body.data.checks).toEqual({ per_second: 0, lag_p99_seconds: null, late: true });
  });

  it('needs a caller', async () => {
    const res = await request(h.app).get('/api/v1/dashboard');
    expect(res.status).toBe(401);
  });
});
