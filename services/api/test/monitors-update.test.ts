import request from 'supertest';
import { expandCheck, isMonitorJobId, type RunCheckJob } from '@uptime/queues';
import { aCaller } from '@uptime/testing';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let otherAuth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put' | 'patch' | 'delete' | 'post', path: string, as = auth) =>
  request(h.app)[method](`/api/v1${path}`).set('Authorization', as);

async function createMonitor(extra: Record<string, unknown> = {}) {
  const res = await api('post', '/monitors').send({ name: 'Shop', url: 'https://shop.example/health', type: 'http', ...extra });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, unknown> & { id: number; updated_at: string };
}

/** Moves updated_at into the past, so a later change is visible whatever the clock resolution. */
async function ageMonitor(id: number): Promise<string> {
  await h.ds.query(`UPDATE monitors SET updated_at = updated_at - interval '1 hour' WHERE id = $1`, [id]);
  return (await api('get', `/monitors/${id}`)).body.data.updated_at;
}

async function rowOf(id: number): Promise<Record<string, unknown>> {
  const [row] = await h.ds.query('SELECT * FROM monitors WHERE id = $1', [id]);
  return row;
}

function expectNotFound(res: request.Response, code = 'MONITOR_NOT_FOUND'): void {
  expect(res.status).toBe(404);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
  expect(res.body.error.code).toBe(code);
  expectMeta(res);
}

describe('GET /monitors/:id', () => {
  it('answers the full monitor', async () => {
    const created = await createMonitor({ tags: ['a'] });
    const res = await api('get', `/monitors/${created.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expectMeta(res);
    expect(res.body.data).toEqual({ ...created, maintenance: [] });
  });

  it('shows uptime from the rollups, with two decimals', async () => {
    const { id } = await createMonitor();
    await h.ds.query(
      `INSERT INTO check_rollups_5m (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist)
       VALUES ($1, date_trunc('hour', now()), 3, 2, 0, 0, '{}')`,
      [id],
    );
    await h.ds.query(
      `INSERT INTO check_rollups_1h (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist)
       VALUES ($1, date_trunc('hour', now()), 8, 7, 0, 0, '{}')`,
      [id],
    );
    const res = await api('get', `/monitors/${id}`);
    expect(res.body.data).toMatchObject({ uptime_24h: 66.67, uptime_7d: 87.5, uptime_30d: null });
  });

  it('answers 404 MONITOR_NOT_FOUND for a missing id', async () => {
    expectNotFound(await api('get', '/monitors/999999'));
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 404 MONITOR_NOT_FOUND for the id %p', async (id) => {
    expectNotFound(await api('get', `/monitors/${id}`));
  });

  it("answers another user's monitor exactly as a missing one", async () => {
    const { id } = await createMonitor();
    const foreign = await api('get', `/monitors/${id}`, otherAuth);
    expectNotFound(foreign);
    await api('delete', `/monitors/${id}`);
    const missing = await api('get', `/monitors/${id}`, otherAuth);
    expect(foreign.body.error).toEqual(missing.body.error);
  });
});

describe.each(['put', 'patch'] as const)('%s /monitors/:id', (method) => {
  it('applies a partial body and answers the full monitor', async () => {
    const created = await createMonitor({ timeout: 20 });
    const agedUpdatedAt = await ageMonitor(created.id);
    const res = await api(method, `/monitors/${created.id}`).send({ name: 'Shop v2', check_interval: 60 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expectMeta(res);
    expect(res.body.data).toEqual({ ...created, name: 'Shop v2', check_interval: 60, updated_at: expect.any(String) });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThan(Date.parse(agedUpdatedAt));
    expect((await api('get', `/monitors/${created.id}`)).body.data).toEqual({ ...res.body.data, maintenance: [] });
  });

  it('reschedules when the interval changes', async () => {
    const { id } = await createMonitor({ check_interval: 300 });
    expect((await h.scheduler.scheduleOf(id))?.every).toBe(300_000);
    const res = await api(method, `/monitors/${id}`).send({ check_interval: 45 });
    expect(res.status).toBe(200);
    const scheduler = await h.scheduler.scheduleOf(id);
    expect(scheduler?.every).toBe(45_000);
    expect(scheduler?.template).toMatchObject({ monitorId: id, configVersion: 2 });
    expect((await h.scheduler.scheduledVersions()).get(id)).toBe('2:45');
  });

  it('refreshes the job template when the check config changes', async () => {
    const { id } = await createMonitor();
    await api(method, `/monitors/${id}`).send({ url: 'https://shop.example/v2', method: 'head', expected_status: [200, 301] });
    const scheduler = await h.scheduler.scheduleOf(id);
    expect(scheduler?.every).toBe(300_000);
    expect(scheduler?.template).toMatchObject({
      monitorId: id,
      configVersion: 2,
      check: { url: 'https://shop.example/v2', method: 'HEAD', expectedStatus: [200, 301] },
    });
  });

  it('clears expected_content with null', async () => {
    const { id } = await createMonitor({ expected_content: 'welcome' });
    const res = await api(method, `/monitors/${id}`).send({ expected_content: null });
    expect(res.status).toBe(200);
    expect(res.body.data.expected_content).toBeNull();
    expect((await rowOf(id)).expected_content).toBeNull();
    // Templates leave out fields at their usual value (packages/queues/src/compact-check.ts): read it expanded.
    const template = (await h.scheduler.scheduleOf(id))?.template as RunCheckJob;
    expect(template.check).not.toHaveProperty('expectedContent');
    expect(expandCheck(template.check)).toMatchObject({ type: 'http', expectedContent: null });
  });

  it.each([
    ['timeout', 4],
    ['timeout', 301],
    ['check_interval', 86401],
    ['retry_count', 11],
    ['url', 'ftp://example.com'],
    ['method', 'FOO'],
    ['expected_status', [99]],
    ['headers', { 'X-A': 1 }],
    ['tags', ['bad tag']],
    ['name', null],
    ['name', ''],
    ['timeout', null],
    ['follow_redirects', null],
    ['status', 'online'],
    ['id', 5],
    ['owner_id', 2],
    ['uptime_24h', 100],
    ['created_at', '2020-01-01T00:00:00.000Z'],
    ['foo', 'bar'],
  ])('refuses %s = %p and changes nothing', async (field, value) => {
    const created = await createMonitor();
    const before = await rowOf(created.id);
    const res = await api(method, `/monitors/${created.id}`).send({ name: 'renamed', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
    expect(await rowOf(created.id)).toEqual(before);
  });

  it.each(['icmp', 'https', 7])('answers INVALID_MONITOR_TYPE for type %p', async (type) => {
    const { id } = await createMonitor();
    const res = await api(method, `/monitors/${id}`).send({ type });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'INVALID_MONITOR_TYPE', message: expect.any(String), details: { field: 'type', value: type } });
  });

  it('accepts type http', async () => {
    const { id } = await createMonitor();
    const res = await api(method, `/monitors/${id}`).send({ type: 'http', url: 'https://example.com/still', name: 'still http' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'http', name: 'still http' });
  });

  it('keeps the status the worker wrote', async () => {
    const { id } = await createMonitor();
    await h.ds.query(`UPDATE monitors SET status = 'online', response_time = 42, last_check = now() WHERE id = $1`, [id]);
    const res = await api(method, `/monitors/${id}`).send({ name: 'renamed' });
    expect(res.body.data).toMatchObject({ status: 'online', response_time: 42 });
    expect((await rowOf(id)).status).toBe('online');
  });

  it('does not schedule a paused monitor', async () => {
    const { id } = await createMonitor();
    await h.scheduler.unschedule(id);
    await h.ds.query(`UPDATE monitors SET status = 'paused', paused_at = now() WHERE id = $1`, [id]);
    const res = await api(method, `/monitors/${id}`).send({ check_interval: 60 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'paused', check_interval: 60 });
    expect((await h.scheduler.scheduledVersions()).has(id)).toBe(false);
  });

  it("answers 404 for another user's monitor and changes nothing", async () => {
    const { id } = await createMonitor();
    const before = await rowOf(id);
    const schedBefore = await h.scheduler.scheduleOf(id);
    const res = await api(method, `/monitors/${id}`, otherAuth).send({ name: 'hijacked', check_interval: 10 });
    expectNotFound(res);
    expect(await rowOf(id)).toEqual(before);
    const schedAfter = await h.scheduler.scheduleOf(id);
    expect(schedAfter?.every).toBe(schedBefore?.every);
    expect(schedAfter?.template).toEqual(schedBefore?.template);
  });

  it('answers 404 for a missing or malformed id', async () => {
    expectNotFound(await api(method, '/monitors/424242').send({ name: 'x' }));
    expectNotFound(await api(method, '/monitors/abc').send({ name: 'x' }));
  });
});

describe('DELETE /monitors/:id', () => {
  async function addHistory(id: number, userId: number): Promise<void> {
    await h.ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time) VALUES ($1, now(), false, 500, 12)`,
      [id],
    );
    const [incident] = await h.ds.query(`INSERT INTO incidents (monitor_id, started_at) VALUES ($1, now()) RETURNING id`, [id]);
    await h.ds.query(
      `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at)
       VALUES ($1, $2, $3, 'downtime', 'active', 'down', now())`,
      [userId, id, incident.id],
    );
  }

  async function countFor(table: string, id: number): Promise<number> {
    const [row] = await h.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE monitor_id = $1`, [id]);
    return row.n;
  }

  it('answers {message, meta} and removes the monitor, its schedule, results and notifications', async () => {
    const { id } = await createMonitor();
    const [{ owner_id: ownerId }] = await h.ds.query('SELECT owner_id FROM monitors WHERE id = $1', [id]);
    await addHistory(id, ownerId);
    expect(await countFor('check_results', id)).toBe(1);
    expect(await countFor('notifications', id)).toBe(1);

    const res = await api('delete', `/monitors/${id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'meta']);
    expect(typeof res.body.message).toBe('string');
    expectMeta(res);

    expect(await rowOf(id)).toBeUndefined();
    expect((await h.scheduler.scheduledVersions()).has(id)).toBe(false);
    expect(await h.scheduler.scheduleOf(id)).toBeUndefined();
    const queued = await h.scheduler.queue.getJobs(['waiting', 'delayed', 'prioritized']);
    expect(queued.filter((j) => isMonitorJobId(j.id) && (j.data as RunCheckJob).monitorId === id)).toEqual([]);
    for (const table of ['check_results', 'notifications', 'incidents']) expect(await countFor(table, id)).toBe(0);
    expectNotFound(await api('get', `/monitors/${id}`));
  });

  it('answers 404 the second time', async () => {
    const { id } = await createMonitor();
    expect((await api('delete', `/monitors/${id}`)).status).toBe(200);
    expectNotFound(await api('delete', `/monitors/${id}`));
  });

  it("answers 404 for another user's monitor and keeps it", async () => {
    const { id } = await createMonitor();
    expectNotFound(await api('delete', `/monitors/${id}`, otherAuth));
    expect(await rowOf(id)).toMatchObject({ id });
    expect((await h.scheduler.scheduledVersions()).has(id)).toBe(true);
  });

  it('answers 404 for a malformed id', async () => {
    expectNotFound(await api('delete', '/monitors/abc'));
  });
});
