import request from 'supertest';
import { aCaller, answer, startFakeHttpServer, type FakeHttpServer } from '@uptime/testing';
import { expectMeta, startApiHarness, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let otherAuth: string;
let target: FakeHttpServer;

beforeAll(async () => {
  target = await startFakeHttpServer(answer(200, 'all good'));
});
afterAll(async () => {
  await target.close();
});
beforeEach(async () => {
  target.respond(answer(200, 'all good'));
  ({ auth } = await aCaller(h.ds));
  ({ auth: otherAuth } = await aCaller(h.ds));
});

const api = (method: 'get' | 'put' | 'post', path: string, as = auth) => request(h.app)[method](`/api/v1${path}`).set('Authorization', as);

async function createMonitor(extra: Record<string, unknown> = {}): Promise<{ id: number }> {
  const res = await api('post', '/monitors').send({ name: 'Shop', url: `${target.url}/health`, type: 'http', ...extra });
  expect(res.status).toBe(201);
  return res.body.data;
}

const rowOf = async (id: number): Promise<Record<string, unknown>> => (await h.ds.query('SELECT * FROM monitors WHERE id = $1', [id]))[0];
const isScheduled = async (id: number): Promise<boolean> => (await h.scheduler.scheduledVersions()).has(id);
const queuedNow = async (id: number): Promise<number> =>
  (await h.scheduler.queue.getJobs(['waiting', 'delayed', 'prioritized'])).filter((j) => j.id?.startsWith(`now-${id}-`)).length;

function expectValidation(res: request.Response, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details)).toContain(field);
  expectMeta(res);
}

function expectNotFound(res: request.Response): void {
  expect(res.status).toBe(404);
  expect(res.body.error.code).toBe('MONITOR_NOT_FOUND');
}

describe.each([
  ['pause', 'resume'],
  ['disable', 'enable'],
])('POST /monitors/:id/%s and /%s', (pause, resume) => {
  it('pauses with a reason, removes the schedule, and resumes as pending with a check at once', async () => {
    const { id } = await createMonitor();
    await h.ds.query(`UPDATE monitors SET status = 'warning', consecutive_failures = 2 WHERE id = $1`, [id]);
    const paused = await api('post', `/monitors/${id}/${pause}`).send({ reason: 'Deploying' });
    expect(paused.status).toBe(200);
    expect(Object.keys(paused.body).sort()).toEqual(['data', 'message', 'meta']);
    expectMeta(paused);
    expect(paused.body.message).toBe('Monitor paused');
    expect(paused.body.data).toMatchObject({ id, status: 'paused', pause_reason: 'Deploying' });
    expect(Date.now() - Date.parse(paused.body.data.paused_at)).toBeLessThan(10_000);
    expect(await isScheduled(id)).toBe(false);
    expect((await api('get', `/monitors/${id}`)).body.data.status).toBe('paused');

    const checksBefore = await queuedNow(id);
    const resumed = await api('post', `/monitors/${id}/${resume}`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.message).toBe('Monitor resumed');
    expect(resumed.body.data).toMatchObject({ id, status: 'pending', paused_at: null, pause_reason: null });
    expect(await rowOf(id)).toMatchObject({ consecutive_failures: 0, status: 'pending' });
    expect(await isScheduled(id)).toBe(true);
    expect(await queuedNow(id)).toBe(checksBefore + 1);
  });

  it('pauses without a body, and is idempotent: a second pause keeps the first paused_at', async () => {
    const { id } = await createMonitor();
    const first = await api('post', `/monitors/${id}/${pause}`);
    expect(first.status).toBe(200);
    expect(first.body.data.pause_reason).toBeNull();
    const second = await api('post', `/monitors/${id}/${pause}`).send({ reason: 'still deploying' });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ status: 'paused', paused_at: first.body.data.paused_at, pause_reason: 'still deploying' });
  });

  it('answers a resume of an active monitor with the monitor unchanged and no extra check', async () => {
    const { id } = await createMonitor();
    await h.ds.query(`UPDATE monitors SET status = 'online' WHERE id = $1`, [id]);
    const before = await queuedNow(id);
    const res = await api('post', `/monitors/${id}/${resume}`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('online');
    expect(await queuedNow(id)).toBe(before);
  });

  it('refuses unknown fields and a reason over 500 characters', async () => {
    const { id } = await createMonitor();
    expectValidation(await api('post', `/monitors/${id}/${pause}`).send({ reason: 'x', status: 'online' }), 'status');
    expectValidation(await api('post', `/monitors/${id}/${pause}`).send({ reason: 'x'.repeat(501) }), 'reason');
    expectValidation(await api('post', `/monitors/${id}/${pause}`).send({ reason: 42 }), 'reason');
    expectValidation(await api('post', `/monitors/${id}/${resume}`).send({ reason: 'x' }), 'reason');
    expect((await rowOf(id)).status).toBe('pending');
  });

  it("answers 404 for another user's monitor and leaves it alone", async () => {
    const { id } = await createMonitor();
    expectNotFound(await api('post', `/monitors/${id}/${pause}`, otherAuth));
    expectNotFound(await api('post', `/monitors/${id}/${resume}`, otherAuth));
    expectNotFound(await api('post', '/monitors/999999/' + pause));
    expect((await rowOf(id)).status).toBe('pending');
    expect(await isScheduled(id)).toBe(true);
  });
});

describe('POST /monitors/:id/test', () => {
  it('runs a dry-run check: the result, and no status change or history', async () => {
    const { id } = await createMonitor({ expected_content: 'good' });
    const res = await api('post', `/monitors/${id}/test`);
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(res.body.data).toEqual({
      status: 'up',
      response_time: expect.any(Number),
      status_code: 200,
      checked_at: expect.any(String),
      error: null,
      timings: { dns: expect.any(Number), connect: expect.any(Number), tls: null, first_byte: expect.any(Number), total: res.body.data.response_time },
      // A dns check's answer; an http check has none.
      dns: null,
      ping: null,
    });
    expect(target.requests.some((r) => r.url === '/health')).toBe(true);
    target.respond(answer(503, 'maintenance'));
    const down = await api('post', `/monitors/${id}/test`);
    expect(down.body.data).toMatchObject({ status: 'down', status_code: 503, error: expect.any(String) });
    expect((await rowOf(id)).status).toBe('pending');
    expect((await h.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [id]))[0].n).toBe(0);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x'])('answers a redirect to %s with a failed check, not a 500', async (to) => {
    target.respond((_req, res) => {
      res.writeHead(302, { location: to });
      res.end();
    });
    const { id } = await createMonitor();
    const res = await api('post', `/monitors/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'down', error: 'redirect to unsupported scheme' });
  });

  it('refuses a private target when private targets are not allowed', async () => {
    const strict = await startApiHarness({ ALLOW_PRIVATE_TARGETS: 'false' });
    try {
      const { user } = await aCaller(strict.ds);
      const { aMonitor, aToken } = await import('@uptime/testing');
      const monitor = await aMonitor(strict.ds, user, { url: `${target.url}/health` });
      const token = await aToken(strict.ds, user);
      const res = await request(strict.app).post(`/api/v1/monitors/${monitor.id}/test`).set('Authorization', `Bearer ${token}`);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('down');
      expect(res.body.data.error).toMatch(/not allowed|refused|private|loopback/i);
    } finally {
      await strict.close();
    }
  });

  it("answers 404 for another user's monitor", async () => {
    const { id } = await createMonitor();
    expectNotFound(await api('post', `/monitors/${id}/test`, otherAuth));
  });
});

async function insertResults(id: number, count: number, startIso = '2026-01-01T00:00:00.000Z'): Promise<void> {
  await h.ds.query(
    // Each check started one second after its planned time (start_lag_ms 1000).
    `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error)
     SELECT $1, t, 1000, i % 3 <> 0, CASE WHEN i % 3 = 0 THEN 500 ELSE 200 END, 100 + i,
            CASE WHEN i % 3 = 0 THEN 'Unexpected status 500' END
       FROM generate_series(1, $2) AS i, LATERAL (SELECT $3::timestamptz + (i - 1) * interval '1 minute' AS t) s`,
    [id, count, startIso],
  );
}

describe('GET /monitors/:id/history', () => {
  it('lists checks newest first with each location, within from/to and limit', async () => {
    const { id } = await createMonitor();
    await insertResults(id, 10);
    const res = await api('get', `/monitors/${id}/history?from=2026-01-01T00:02:00Z&to=2026-01-01T00:06:30Z&limit=3`);
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(res.body.pagination).toEqual({ page: 1, limit: 3, total: 5, pages: 2, has_next: true, has_prev: false });
    expect(res.body.data.map((r: { checked_at: string }) => r.checked_at)).toEqual([
      '2026-01-01T00:06:01.000Z',
      '2026-01-01T00:05:01.000Z',
      '2026-01-01T00:04:01.000Z',
    ]);
    expect(res.body.data[2]).toEqual({
      id: expect.any(Number),
      checked_at: '2026-01-01T00:04:01.000Z',
      status: 'up',
      status_code: 200,
      response_time: 105,
      error: null,
      maintenance: false,
      location: null,
      // Rows written before timings were recorded read as null phases; the total is response_time.
      timings: { dns: null, connect: null, tls: null, first_byte: null, total: 105 },
      // Per-location detail, filled when a check also ran through agents.
      locations: [],
      dns: null,
      ping: null,
    });
    const all = await api('get', `/monitors/${id}/history`);
    expect(all.body.data).toHaveLength(10);
    // A result row has no location of its own; each location's result is in `locations`.
    expect(all.body.data.every((r: { location: string | null }) => r.location === null)).toBe(true);
    expect(all.body.data.find((r: { response_time: number }) => r.response_time === 102)).toMatchObject({ status: 'up', status_code: 200 });
    expect(all.body.data.find((r: { response_time: number }) => r.response_time === 103)).toMatchObject({ status: 'down', status_code: 500, error: 'Unexpected status 500' });
  });

  it.each([
    ['from=yesterday', 'from'],
    ['to=2026-13-01', 'to'],
    ['from=2026-01-02&to=2026-01-01', 'from'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
  ])('refuses %s', async (query, field) => {
    const { id } = await createMonitor();
    expectValidation(await api('get', `/monitors/${id}/history?${query}`), field);
  });

  it("answers 404 for another user's monitor", async () => {
    const { id } = await createMonitor();
    expectNotFound(await api('get', `/monitors/${id}/history`, otherAuth));
  });
});

describe('GET /monitors/:id/results', () => {
  it('pages through checks newest first', async () => {
    const { id } = await createMonitor();
    await insertResults(id, 7);
    const res = await api('get', `/monitors/${id}/results?page=2&limit=3`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 2, limit: 3, total: 7, pages: 3, has_next: true, has_prev: true });
    expect(res.body.data.map((r: { response_time: number }) => r.response_time)).toEqual([104, 103, 102]);
    const first = await api('get', `/monitors/${id}/results`);
    expect(first.body.pagination).toMatchObject({ page: 1, limit: 50, total: 7 });
  });

  it('shows the timing phases recorded with each check', async () => {
    const { id } = await createMonitor();
    await h.ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time, dns_ms, connect_ms, tls_ms, first_byte_ms)
       VALUES ($1, '2026-01-01T00:00:00Z', true, 200, 140, 12, 20, 35, 60)`,
      [id],
    );
    const res = await api('get', `/monitors/${id}/results`);
    expect(res.status).toBe(200);
    expect(res.body.data[0].timings).toEqual({ dns: 12, connect: 20, tls: 35, first_byte: 60, total: 140 });
  });

  it('refuses a limit over 100 and answers 404 for a foreign monitor', async () => {
    const { id } = await createMonitor();
    expectValidation(await api('get', `/monitors/${id}/results?limit=101`), 'limit');
    expectNotFound(await api('get', `/monitors/${id}/results`, otherAuth));
  });
});
