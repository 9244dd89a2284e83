import request from 'supertest';
import { openQueue, QueueName } from '@uptime/queues';
import { aCaller } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';
import type { PingKind } from '../src/heartbeats/heartbeat-pings.repository';
import { PingBatcher } from '../src/heartbeats/ping-batcher';
import { withPingsFirst } from '../src/app';

const h = useApiHarness({ PING_RATE_LIMIT_PER_MINUTE: '1000' });
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

const api = (method: 'post' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);

/** A new heartbeat monitor: its id and the path of its ping URL. */
async function heartbeat(): Promise<{ id: number; path: string }> {
  const res = await api('post', '/monitors').send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 60 });
  return { id: res.body.data.id, path: new URL(res.body.data.heartbeat_url).pathname };
}

const pings = (monitorId: number) =>
  h.ds.query(
    `SELECT kind, exit_status, source_ip, user_agent, body, body_size, body_truncated FROM heartbeat_pings WHERE monitor_id = $1 ORDER BY id`,
    [monitorId],
  );

function expectText(res: request.Response, status: number, text: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  expect(res.text).toBe(text);
}

describe('heartbeat ping routes', () => {
  it('records a success, a start, a fail and exit statuses on GET, POST and HEAD, with no caller, and answers OK', async () => {
    const { id, path } = await heartbeat();
    expectText(await request(h.app).get(path).set('User-Agent', 'curl/8.5.0'), 200, 'OK');
    expectText(await request(h.app).post(`${path}/start`), 200, 'OK');
    expect((await request(h.app).head(`${path}/fail`)).status).toBe(200);
    expectText(await request(h.app).get(`${path}/0`), 200, 'OK');
    expectText(await request(h.app).post(`${path}/255`).set('Content-Type', 'text/plain').send('disk full'), 200, 'OK');
    expect(await pings(id)).toEqual([
      { kind: 'success', exit_status: null, source_ip: expect.stringMatching(/127\.0\.0\.1|::1/), user_agent: 'curl/8.5.0', body: null, body_size: 0, body_truncated: false },
      expect.objectContaining({ kind: 'start', exit_status: null }),
      expect.objectContaining({ kind: 'fail', exit_status: null }),
      expect.objectContaining({ kind: 'exit', exit_status: 0 }),
      expect.objectContaining({ kind: 'exit', exit_status: 255, body: 'disk full', body_size: 9, body_truncated: false }),
    ]);
  });

  it("puts each ping in the check-worker's inbox by its one statement, queues no job, and answers while a step holds the monitor's row", async () => {
    const { id, path } = await heartbeat();
    const queue = openQueue(QueueName.checks, { connection: h.redis, prefix: h.config.redis.queuePrefix });
    const queuedBefore = await queue.getJobCounts('waiting', 'delayed', 'prioritized');
    // A check-worker's pass holds the monitor's row lock as it steps it
    // (services/check-worker/src/heartbeat/heartbeat.repository.ts, lockHeartbeats): the ping's
    // insert must not wait for that transaction to end (docs/heartbeats.md, "How it is built").
    const step = h.ds.createQueryRunner();
    await step.connect();
    await step.startTransaction();
    try {
      await step.query(`SELECT id FROM monitors WHERE id = $1 FOR NO KEY UPDATE`, [id]);
      const answered = await Promise.race([
        request(h.app).get(path).then((res) => res.status),
        new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), 3000)),
      ]);
      expect(answered).toBe(200);
    } finally {
      await step.rollbackTransaction();
      await step.release();
    }
    await request(h.app).get(`${path}/fail`);
    const [success, fail] = await h.ds.query(`SELECT id, kind, received_at FROM heartbeat_pings WHERE monitor_id = $1 ORDER BY id`, [id]);
    expect(await h.ds.query(`SELECT ping_id, monitor_id, kind, exit_status, received_at FROM heartbeat_ping_inbox ORDER BY ping_id`)).toEqual([
      { ping_id: success.id, monitor_id: id, kind: 'success', exit_status: null, received_at: success.received_at },
      { ping_id: fail.id, monitor_id: id, kind: 'fail', exit_status: null, received_at: fail.received_at },
    ]);
    expect(await queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual(queuedBefore);
  });

  it('keeps 10 KiB of a POST body and marks a longer one as cut', async () => {
    const { id, path } = await heartbeat();
    const long = `${'é'.repeat(6000)}END`;
    expectText(await request(h.app).post(path).set('Content-Type', 'text/plain').send(long), 200, 'OK');
    const [row] = await pings(id);
    expect(row.body_size).toBe(Buffer.byteLength(long));
    expect(row.body_truncated).toBe(true);
    expect(Buffer.byteLength(row.body)).toBeLessThanOrEqual(10 * 1024);
    expect(row.body.startsWith('é'.repeat(5000))).toBe(true);
    expect(row.body).not.toContain('END');
    const exact = 'x'.repeat(10 * 1024);
    await request(h.app).post(path).set('Content-Type', 'text/plain').send(exact);
    expect((await pings(id))[1]).toMatchObject({ body: exact, body_size: 10240, body_truncated: false });
  });

  it('answers 404 not found to an unknown, malformed or rotated token and to an unknown signal, recording nothing', async () => {
    const { id, path } = await heartbeat();
    expectText(await request(h.app).get('/ping/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'not found');
    expectText(await request(h.app).post('/ping/short/start'), 404, 'not found');
    expectText(await request(h.app).get(`${path}/256`), 404, 'not found');
    expectText(await request(h.app).get(`${path}/oops`), 404, 'not found');
    // A NUL cannot be in a token (nor in a Postgres text): no such token, not a 400.
    expectText(await request(h.app).get('/ping/%00'), 404, 'not found');
    expectText(await request(h.app).post(`/ping/a%00b/start`), 404, 'not found');
    await api('post', `/monitors/${id}/heartbeat/rotate`);
    expectText(await request(h.app).get(path), 404, 'not found');
    expect(await pings(id)).toEqual([]);
  });

  it("keeps a body with NUL bytes (a job's binary output), each shown as U+FFFD", async () => {
    const { id, path } = await heartbeat();
    expectText(await request(h.app).post(`${path}/0`).set('Content-Type', 'application/octet-stream').send(Buffer.from('a\0b')), 200, 'OK');
    expect(await pings(id)).toEqual([expect.objectContaining({ kind: 'exit', body: 'a\uFFFDb', body_size: 3 })]);
  });

  it('records a ping to a paused monitor', async () => {
    const { id, path } = await heartbeat();
    await api('post', `/monitors/${id}/pause`);
    expectText(await request(h.app).get(path), 200, 'OK');
    expect(await pings(id)).toHaveLength(1);
  });

  it('records at most 5 pings a second per token and answers the rest 429', async () => {
    const { id, path } = await heartbeat();
    const other = await heartbeat();
    // Within one second of the clock, so that the count is of one window.
    await waitForSecondStart();
    const answers = await Promise.all(Array.from({ length: 8 }, () => request(h.app).get(path)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const limited = answers.find((r) => r.status === 429)!;
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(await pings(id)).toHaveLength(5);
    // Another token has its own count.
    expect((await request(h.app).get(other.path)).status).toBe(200);
  });

  it('counts and writes the pings of one event-loop turn in one script and one statement, in their order, and answers each for itself', async () => {
    const a = await heartbeat();
    const b = await heartbeat();
    const batcher = new PingBatcher({ ds: h.ds, redis: h.redis, prefix: h.config.redis.queuePrefix });
    const input = (path: string, kind: PingKind, exitStatus: number | null = null) => {
      const token = path.split('/')[2]!;
      return { token, ip: '192.0.2.1', input: { token, kind, exitStatus, sourceIp: '192.0.2.1', userAgent: null, body: null, bodySize: 0, bodyTruncated: false } };
    };
    const statements = jest.spyOn(h.ds, 'query');
    const scripts = jest.spyOn(h.redis, 'eval');
    try {
      const outcomes = await Promise.all([
        batcher.submit(input(a.path, 'success')),
        batcher.submit(input(b.path, 'exit', 3)),
        batcher.submit(input('/ping/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC', 'success')),
        // Counted, not recorded: its route named no signal.
        batcher.submit({ ...input(b.path, 'success'), input: null }),
        batcher.submit(input(a.path, 'start')),
      ]);
      expect(outcomes.map((o) => [o.recorded, o.rate.outcome])).toEqual([
        [true, 'within'],
        [true, 'within'],
        [false, 'within'],
        [false, 'within'],
        [true, 'within'],
      ]);
      expect(statements.mock.calls.filter(([sql]) => String(sql) !== 'SELECT 1')).toHaveLength(1);
      expect(scripts).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
      scripts.mockRestore();
    }
    expect(await pings(a.id)).toEqual([expect.objectContaining({ kind: 'success' }), expect.objectContaining({ kind: 'start' })]);
    expect(await pings(b.id)).toEqual([expect.objectContaining({ kind: 'exit', exit_status: 3 })]);
  });

  it("answers the same through the server's listener, which hands pings to the ping routes ahead of Express's router", async () => {
    const { id, path } = await heartbeat();
    const server = withPingsFirst(h.app);
    const ok = await request(server).post(`${path}/7`).set('Content-Type', 'text/plain').set('X-Request-Id', 'listener-ping-1').send('out');
    expectText(ok, 200, 'OK');
    expect(ok.headers).toMatchObject({ 'x-request-id': 'listener-ping-1', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    expectText(await request(server).get('/ping/EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE'), 404, 'not found');
    expectText(await request(server).get('/ping/%FF'), 404, 'not found');
    expect((await request(server).head(path)).status).toBe(200);
    // Express matched the mount path in any case: so do the routes.
    expectText(await request(server).get(path.replace('/ping/', '/PING/')), 200, 'OK');
    expect(await pings(id)).toEqual([
      expect.objectContaining({ kind: 'exit', exit_status: 7, body: 'out' }),
      expect.objectContaining({ kind: 'success' }),
      expect.objectContaining({ kind: 'success' }),
    ]);
    // A limit's 429 is the app's error envelope, with the request's id.
    await waitForSecondStart();
    const answers = await Promise.all(Array.from({ length: 7 }, () => request(server).get(path)));
    const limited = answers.find((r) => r.status === 429)!;
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) },
      meta: { timestamp: expect.any(String), request_id: limited.headers['x-request-id'] },
    });
    // Anything else is the app's.
    const other = await request(server).get('/api/v1/monitors');
    expect(other.status).toBe(401);
    expect(other.body.error.code).toBeDefined();
  });

  it('answers an unknown token after the same work as a known one: one rate count, one statement', async () => {
    const { path } = await heartbeat();
    const unknown = '/ping/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    // The time of a 404 tells nothing when it does what a 200 does: the same Redis script and
    // the same single Postgres statement, which both finds the monitor and writes (or writes nothing).
    // Counted, not timed: the spies call through to the real Postgres and Redis.
    const statements = jest.spyOn(h.ds, 'query');
    // The rate count is one script (ping-rate.ts); the per-IP limit's count, if any, is one more.
    const scripts = jest.spyOn(h.redis, 'eval');
    const workOf = async (p: string, status: number): Promise<{ statements: string[]; scripts: number }> => {
      statements.mockClear();
      scripts.mockClear();
      expect((await request(h.app).get(p)).status).toBe(status);
      // The dependency gate's readiness probe (packages/observability/src/readiness.ts) runs on its
      // own timer through the same pool and may land inside the request: it is not the request's work.
      const sqls = statements.mock.calls.map(([sql]) => String(sql).replace(/\s+/g, ' ')).filter((sql) => sql !== 'SELECT 1');
      return { statements: sqls, scripts: scripts.mock.calls.length };
    };
    try {
      const known = await workOf(path, 200);
      const other = await workOf(unknown, 404);
      expect(known.statements).toHaveLength(1);
      expect(known.scripts).toBeGreaterThanOrEqual(1);
      // The batch statement (heartbeat-pings.repository.ts, insertPings): the row, found by token.
      expect(known.statements[0]).toMatch(/^WITH given AS \( SELECT \* FROM unnest\(.* JOIN monitors m ON m\.heartbeat_token = g\.token .* INSERT INTO heartbeat_pings /);
      expect(other).toEqual(known);
    } finally {
      statements.mockRestore();
      scripts.mockRestore();
    }
  });
});

/** Waits for the start of the next clock second (the per-token count's window). */
async function waitForSecondStart(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

describe('heartbeat results', () => {
  it("lists a heartbeat's pings as its results, and gives each ping's kept body", async () => {
    const { id, path } = await heartbeat();
    await request(h.app).get(`${path}/start`).set('User-Agent', 'cron-wrapper');
    await request(h.app).post(`${path}/0`).set('Content-Type', 'text/plain').send('backup done\n');
    const list = await api('get', `/monitors/${id}/results`);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toMatchObject({ total: 2, page: 1 });
    expect(list.body.data).toEqual([
      expect.objectContaining({ kind: 'exit', exit_status: 0, body_size: 12, body_truncated: false, source_ip: expect.any(String) }),
      expect.objectContaining({ kind: 'start', exit_status: null, user_agent: 'cron-wrapper', body_size: 0 }),
    ]);
    expect(list.body.data[0].body).toBeUndefined();
    const one = await api('get', `/monitors/${id}/results/${list.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: list.body.data[0].id, kind: 'exit', body: 'backup done\n' });
    const missing = await api('get', `/monitors/${id}/results/999999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('finds a ping whose id is past 32 bits, and answers 404 for an id past 2^63-1 or malformed', async () => {
    const { id, path } = await heartbeat();
    // heartbeat_pings.id is a bigserial: move its sequence past 2^32 (docs/heartbeats.md, "History").
    await h.ds.query(`SELECT setval(pg_get_serial_sequence('heartbeat_pings', 'id'), 4294967296)`);
    await request(h.app).get(path);
    const one = await api('get', `/monitors/${id}/results/4294967297`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: 4294967297, kind: 'success' });
    const list = await api('get', `/monitors/${id}/results`);
    expect(list.body.data[0].id).toBe(4294967297);
    for (const bad of ['9223372036854775807', '9223372036854775808', '99999999999999999999', '0', '-1', '1e3', 'abc', '4294967297.0']) {
      const res = await api('get', `/monitors/${id}/results/${bad}`);
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 404, 'NOT_FOUND']);
    }
  });
});
