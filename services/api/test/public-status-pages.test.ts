import request from 'supertest';
import type { Monitor, User } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { aCaller, aMonitor, waitFor } from '@uptime/testing';
import { createApp } from '../src/app';
import { checkInspectedResponse } from './support/document-contract';
import { expectMeta, startApiHarness, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let user: User;
let auth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds, { email: `owner-${Date.now()}@secret-owner.test` }));
});

const DAY = 86_400_000;
const today = (): number => Math.floor(Date.now() / DAY) * DAY;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

async function aPage(body: Record<string, unknown>, as = auth): Promise<{ id: number; slug: string }> {
  const res = await request(h.app).post('/api/v1/status-pages').set('Authorization', as).send(body);
  expect(res.status).toBe(201);
  return res.body.data;
}

async function daily(monitor: Monitor, dayMs: number, checks: number, successes: number): Promise<void> {
  await h.ds.query(`INSERT INTO check_rollups_1d (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, $3, $4, $3, 0, '{}')`, [
    monitor.id,
    new Date(dayMs),
    checks,
    successes,
  ]);
}

async function openIncident(monitor: Monitor, startedAt: Date, error = 'connect ECONNREFUSED 10.1.2.3:443'): Promise<void> {
  const [incident] = await h.ds.query(`INSERT INTO incidents (monitor_id, started_at, error) VALUES ($1, $2, $3) RETURNING id`, [monitor.id, startedAt, error]);
  await h.ds.query(`UPDATE monitors SET open_incident_id = $2 WHERE id = $1`, [monitor.id, incident.id]);
}

const readPublic = (slug: string) => request(h.app).get(`/api/v1/public/status-pages/${slug}`);

describe('GET /api/v1/public/status-pages/{slug}', () => {
  it('answers the published page with no caller, in the documented shape', async () => {
    const shop = await aMonitor(h.ds, user, { name: 'Shop', status: 'online', url: 'https://internal-shop.secret.test/health' });
    const api = await aMonitor(h.ds, user, { name: 'API', status: 'online' });
    await daily(shop, today(), 100, 99);
    await daily(shop, today() - 89 * DAY, 10, 10);
    await daily(shop, today() - 90 * DAY, 10, 0); // the 91st day back: outside the 90
    await h.ds.query(`INSERT INTO check_rollups_5m (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, 4, 3, 4, 0, '{}')`, [
      shop.id,
      new Date(Math.floor(Date.now() / 300_000) * 300_000),
    ]);
    await aPage({ slug: 'acme', title: 'Acme', description: 'All of it', monitor_ids: [shop.id, api.id] });

    const res = await readPublic('acme');
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(Object.keys(res.body.data)).toEqual(['slug', 'title', 'description', 'status', 'monitors', 'sections', 'active_incidents', 'impact', 'incidents', 'maintenance', 'past_incidents', 'updated_at']);
    expect(res.body.data).toEqual(expect.objectContaining({ slug: 'acme', title: 'Acme', description: 'All of it', status: 'operational', active_incidents: [] }));
    const [first, second] = res.body.data.monitors;
    expect(Object.keys(first)).toEqual(['name', 'section', 'status', 'in_maintenance', 'display_status', 'uptime_24h', 'uptime_90d', 'days']);
    expect(first).toEqual(expect.objectContaining({ name: 'Shop', status: 'online', display_status: 'online', uptime_24h: 75, uptime_90d: 99.09 }));
    expect(first.days).toHaveLength(90);
    expect(first.days[0]).toEqual({ date: isoDay(today() - 89 * DAY), uptime: 100 });
    expect(first.days[89]).toEqual({ date: isoDay(today()), uptime: 99 });
    expect(first.days[1]).toEqual({ date: isoDay(today() - 88 * DAY), uptime: null });
    expect(second).toEqual(expect.objectContaining({ name: 'API', uptime_24h: null, uptime_90d: null }));
    expect(second.days.every((d: { uptime: number | null }) => d.uptime === null)).toBe(true);
  });

  it('shows no monitor URL, id, owner or error text', async () => {
    const m = await aMonitor(h.ds, user, { name: 'Down one', status: 'offline', url: 'https://internal-host.secret.test/x' });
    await openIncident(m, new Date(Date.now() - 60_000), 'TLS error at 10.9.8.7 secret-detail');
    await aPage({ slug: 'private-bits', title: 'T', monitor_ids: [m.id] });
    const res = await readPublic('private-bits');
    expect(res.status).toBe(200);
    for (const secret of ['internal-host', 'secret-detail', '10.9.8.7', 'secret-owner', `"id"`, 'owner']) expect(res.text).not.toContain(secret);
    expect(res.body.data.active_incidents).toEqual([{ monitor_name: 'Down one', started_at: expect.stringMatching(/Z$/) }]);
  });

  it.each([
    [['online', 'online'], 'operational'],
    [['online', 'warning'], 'degraded'],
    [['warning', 'offline'], 'outage'],
    [['paused', 'online'], 'operational'],
    [['paused'], 'operational'],
    [['pending', 'online'], 'operational'],
  ] as const)('is %j → %s', async (statuses, expected) => {
    const ids = [];
    for (const status of statuses) ids.push((await aMonitor(h.ds, user, { status })).id);
    await aPage({ slug: 'rules', title: 'T', monitor_ids: ids });
    const res = await readPublic('rules');
    expect(res.body.data.status).toBe(expected);
    expect(res.body.data.monitors.map((m: { status: string }) => m.status)).toEqual(statuses);
  });

  it('lists the open incidents of the monitors shown, not of a paused one', async () => {
    const down = await aMonitor(h.ds, user, { name: 'Down', status: 'offline' });
    const paused = await aMonitor(h.ds, user, { name: 'Paused', status: 'paused' });
    const started = new Date(Date.now() - 3_600_000);
    await openIncident(down, started);
    await openIncident(paused, started);
    await aPage({ slug: 'incidents', title: 'T', monitor_ids: [paused.id, down.id] });
    const res = await readPublic('incidents');
    expect(res.body.data.status).toBe('outage');
    expect(res.body.data.active_incidents).toEqual([{ monitor_name: 'Down', started_at: started.toISOString() }]);
  });

  it('answers 404 NOT_FOUND for an unpublished, unknown or malformed slug', async () => {
    const m = await aMonitor(h.ds, user);
    await aPage({ slug: 'hidden', title: 'T', monitor_ids: [m.id], published: false });
    for (const slug of ['hidden', 'nobody-here', 'NOT_A_SLUG']) {
      const res = await readPublic(slug);
      expect([slug, res.status, res.body.error?.code]).toEqual([slug, 404, 'NOT_FOUND']);
    }
  });

  it('answers 400 VALIDATION_ERROR for a slug holding a malformed percent-escape', async () => {
    for (const slug of ['%FF', '%E0%A4%A']) {
      const res = await readPublic(slug);
      expect([slug, res.status, res.body.error?.code]).toEqual([slug, 400, 'VALIDATION_ERROR']);
    }
  });

  it('shows an owner change at once: unpublishing, publishing, renaming and deleting a monitor', async () => {
    const a = await aMonitor(h.ds, user, { name: 'Kept' });
    const b = await aMonitor(h.ds, user, { name: 'Deleted' });
    // A visit before the page exists caches "not found"; creating it must not wait for that to expire.
    expect((await readPublic('live')).status).toBe(404);
    const page = await aPage({ slug: 'live', title: 'T', monitor_ids: [a.id, b.id] });
    expect((await readPublic('live')).body.data.monitors.map((m: { name: string }) => m.name)).toEqual(['Kept', 'Deleted']);
    expect((await request(h.app).delete(`/api/v1/monitors/${b.id}`).set('Authorization', auth)).status).toBe(200);
    expect((await readPublic('live')).body.data.monitors.map((m: { name: string }) => m.name)).toEqual(['Kept']);
    await request(h.app).patch(`/api/v1/status-pages/${page.id}`).set('Authorization', auth).send({ published: false });
    expect((await readPublic('live')).status).toBe(404);
    await request(h.app).patch(`/api/v1/status-pages/${page.id}`).set('Authorization', auth).send({ published: true, slug: 'moved' });
    expect((await readPublic('live')).status).toBe(404);
    expect((await readPublic('moved')).status).toBe(200);
  });

  it('answers with Cache-Control and an ETag, and 304 to If-None-Match', async () => {
    const m = await aMonitor(h.ds, user);
    await aPage({ slug: 'etag', title: 'T', monitor_ids: [m.id] });
    const first = await readPublic('etag');
    expect(first.headers['cache-control']).toBe('public, max-age=30');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    const again = await readPublic('etag').set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await readPublic('etag').set('If-None-Match', 'W/"something-else"');
    expect(other.status).toBe(200);
  });

  it('costs Postgres one query set per page and cache period, however many requests and replicas miss at once', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await aMonitor(h.ds, user)).id);
    await aPage({ slug: 'surge', title: 'T', monitor_ids: ids });
    const query = jest.spyOn(h.ds, 'query');
    // What the page costs; each app's readiness probe (SELECT 1 every 250 ms at most,
    // dependency-gate.ts) reads no page and is not counted.
    const pageQueries = (): number => query.mock.calls.filter(([sql]) => sql !== 'SELECT 1').length;
    try {
      // One fill alone: how many queries a query set is.
      expect((await readPublic('surge')).status).toBe(200);
      const oneSet = pageQueries();
      expect(oneSet).toBeGreaterThan(0);
      await h.redis.del(`${h.config.redis.queuePrefix}:public:page:surge`);
      // The uptime base of this hour is cached apart (uptime.repository.ts); it must not change the count.
      await h.redis.del(...(await h.redis.keys(`${h.config.redis.queuePrefix}:uptime-base:*`)));
      query.mockClear();
      // A second replica: its own app, process-local state and all, on the same Postgres and Redis.
      const replica = createApp({
        config: h.config,
        dataSource: h.ds,
        redis: h.redis,
        scheduler: h.scheduler,
        logger: createLogger({ level: 'silent', service: 'replica' }),
        responseInspector: checkInspectedResponse,
      });
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => request(i % 2 === 0 ? h.app : replica).get(i % 3 === 0 ? '/status/surge' : '/api/v1/public/status-pages/surge')),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(pageQueries()).toBe(oneSet);
    } finally {
      query.mockRestore();
    }
  });
});

describe('the cache period', () => {
  it('serves the cached figures until PUBLIC_CACHE_SECONDS have passed, then reads them again', async () => {
    const short = await startApiHarness({ PUBLIC_CACHE_SECONDS: '1' });
    try {
      await short.reset();
      const { user: owner, auth: ownerAuth } = await aCaller(short.ds);
      const m = await aMonitor(short.ds, owner, { name: 'Before', status: 'online' });
      await request(short.app).post('/api/v1/status-pages').set('Authorization', ownerAuth).send({ slug: 'period', title: 'T', monitor_ids: [m.id] });
      const first = await request(short.app).get('/api/v1/public/status-pages/period');
      expect(first.headers['cache-control']).toBe('public, max-age=1');
      // A change the owner API does not see (a check result, say) waits for the period to end.
      await short.ds.query(`UPDATE monitors SET name = 'After', status = 'offline' WHERE id = $1`, [m.id]);
      const cached = await request(short.app).get('/api/v1/public/status-pages/period');
      expect(cached.body.data.monitors[0]).toEqual(expect.objectContaining({ name: 'Before', status: 'online' }));
      const key = `${short.config.redis.queuePrefix}:public:page:period`;
      await waitFor(async () => (await short.redis.exists(key)) === 0, { timeoutMs: 5000, intervalMs: 50, what: 'the cache entry to expire' });
      const fresh = await request(short.app).get('/api/v1/public/status-pages/period');
      expect(fresh.body.data).toEqual(expect.objectContaining({ status: 'outage', monitors: [expect.objectContaining({ name: 'After', status: 'offline' })] }));
      expect(fresh.headers.etag).not.toBe(first.headers.etag);
    } finally {
      await short.close();
    }
  });
});

describe('a filler that died', () => {
  it('leaves a lock that stops no one: a reader waits a little, then fills the entry itself', async () => {
    const m = await aMonitor(h.ds, user, { name: 'Still served' });
    await aPage({ slug: 'orphan', title: 'T', monitor_ids: [m.id] });
    // Another replica took the fill lock and never wrote the entry.
    await h.redis.set(`${h.config.redis.queuePrefix}:public:page:orphan:filling`, '1', 'PX', 60_000);
    const res = await readPublic('orphan');
    expect(res.status).toBe(200);
    expect(res.body.data.monitors[0].name).toBe('Still served');
    expect(await h.redis.exists(`${h.config.redis.queuePrefix}:public:page:orphan`)).toBe(1);
  });
});

describe('public rate limit', () => {
  it('counts public reads per IP apart from the account limit', async () => {
    const limited = await startApiHarness({ PUBLIC_RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '2' });
    try {
      await limited.reset();
      const { user: owner, auth: ownerAuth } = await aCaller(limited.ds);
      const m = await aMonitor(limited.ds, owner);
      expect((await request(limited.app).post('/api/v1/status-pages').set('Authorization', ownerAuth).send({ slug: 'busy', title: 'T', monitor_ids: [m.id] })).status).toBe(201);
      const statuses = [];
      for (const path of ['/status/busy', '/api/v1/public/status-pages/busy', '/status/busy', '/api/v1/public/status-pages/busy']) {
        const res = await request(limited.app).get(path);
        statuses.push(res.status);
        expect(res.headers['x-ratelimit-limit']).toBe('3');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      // The account allowance is untouched by public reads: one request of the owner's 2 is left.
      const own = await request(limited.app).get('/api/v1/status-pages').set('Authorization', ownerAuth);
      expect([own.status, own.headers['x-ratelimit-limit'], own.headers['x-ratelimit-remaining']]).toEqual([200, '2', '0']);
    } finally {
      await limited.close();
    }
  });
});
