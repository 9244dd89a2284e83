import request from 'supertest';
import { expandCheck, type RunCheckJob } from '@uptime/queues';
import { aCaller } from '@uptime/testing';
import { expectMeta, startApiHarness, useApiHarness, type ApiHarness } from './support/api-harness';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const h = useApiHarness();
let auth: string;
let userId: number;

beforeEach(async () => {
  const caller = await aCaller(h.ds);
  ({ auth } = caller);
  userId = caller.user.id;
});

const create = (body: unknown) =>
  request(h.app)
    .post('/api/v1/monitors')
    .set('Authorization', auth)
    .send(body as object);
const valid = { name: 'API health', url: 'https://example.com/health', type: 'http' };

async function monitorCount(): Promise<number> {
  const [row] = await h.ds.query('SELECT count(*)::int AS n FROM monitors');
  return row.n;
}

/** The error envelope of docs/errors.md, exactly: `{error: {code, message, details?}, meta}`, no stack. */
function expectError(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(Object.keys(res.body.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(ts|js):\d+/);
  expectMeta(res);
}

/** A VALIDATION_ERROR naming `fields` (and only them), and nothing was created. */
async function expectFieldErrors(res: request.Response, fields: string[]): Promise<void> {
  expectError(res, 400, 'VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
  for (const f of fields) {
    expect(res.body.error.details[f]).toEqual(expect.arrayContaining([expect.any(String)]));
  }
  expect(await monitorCount()).toBe(0);
  expect((await h.scheduler.scheduledVersions()).size).toBe(0);
}

describe('POST /monitors', () => {
  it('creates a pending monitor with every default and answers the full monitor', async () => {
    const before = Date.now();
    const res = await create(valid);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'API health',
      url: 'https://example.com/health',
      type: 'http',
      method: 'GET',
      headers: {},
      body: null,
      expected_status: [],
      timeout: 30,
      check_interval: 300,
      retry_count: 0,
      follow_redirects: true,
      verify_ssl: true,
      expected_content: null,
      excluded_content: null,
      json_path: null,
      expected_json_value: null,
      tcp_send: null,
      dns_record_type: null,
      dns_resolver: null,
      dns_protocol: null,
      expected_dns_values: null,
      ping_count: null,
      locations: [],
      tags: [],
      key: null,
      managed_by: null,
      status: 'pending',
      status_reason: null,
      response_time_threshold: null,
      recovery_threshold: 1,
      depends_on: [],
      heartbeat_period: null,
      heartbeat_cron: null,
      heartbeat_timezone: null,
      heartbeat_grace: null,
      heartbeat_url: null,
      certificate_expires_at: null,
      uptime_24h: null,
      uptime_7d: null,
      uptime_30d: null,
      response_time: null,
      last_check: null,
      last_success: null,
      last_failure: null,
      paused_at: null,
      pause_reason: null,
      in_maintenance: false,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const created = Date.parse(res.body.data.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('echoes X-Request-Id as meta.request_id', async () => {
    const res = await create(valid).set('X-Request-Id', 'create-req-0001');
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe('create-req-0001');
    expect(res.body.meta.request_id).toBe('create-req-0001');
  });

  it('stores every given field and answers it back', async () => {
    const body = {
      ...valid,
      method: 'post',
      headers: { 'X-Api-Key': 'k1', Accept: 'application/json' },
      body: '{"ping":true}',
      expected_status: [200, 204],
      timeout: 10,
      check_interval: 60,
      retry_count: 2,
      follow_redirects: false,
      verify_ssl: false,
      expected_content: 'ok',
      excluded_content: 'error',
      json_path: '$.status',
      expected_json_value: 'up',
      locations: ['eu-west', 'us-east'],
      tags: ['prod', 'team:core'],
    };
    const res = await create(body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ ...body, method: 'POST', status: 'pending' });
    const got = await request(h.app).get(`/api/v1/monitors/${res.body.data.id}`).set('Authorization', auth);
    // GET one adds the monitor's upcoming maintenance windows (docs/alert-rules.md).
    expect(got.body.data).toEqual({ ...res.body.data, maintenance: [] });
  });

  it('creates the job scheduler with the check config and queues an immediate check', async () => {
    const res = await create({ ...valid, check_interval: 120, expected_content: 'healthy', headers: { 'X-A': 'b' } });
    expect(res.status).toBe(201);
    const id: number = res.body.data.id;

    const versions = await h.scheduler.scheduledVersions();
    expect([...versions.keys()]).toEqual([id]);
    expect(versions.get(id)).toBe('1:120');

    const scheduler = await h.scheduler.scheduleOf(id);
    expect(scheduler?.every).toBe(120_000);
    // The template stores what differs from the usual values (packages/queues/src/compact-check.ts).
    const template = scheduler?.template as RunCheckJob;
    expect(template).toEqual({
      monitorId: id,
      configVersion: 1,
      check: { url: 'https://example.com/health', timeout: 30, headers: { 'X-A': 'b' }, expectedContent: 'healthy' },
    });
    expect({ ...template, check: expandCheck(template.check) }).toEqual({
      monitorId: id,
      configVersion: 1,
      check: {
        type: 'http',
        url: 'https://example.com/health',
        method: 'GET',
        headers: { 'X-A': 'b' },
        body: null,
        timeout: 30,
        followRedirects: true,
        verifySsl: true,
        expectedStatus: [],
        expectedContent: 'healthy',
        excludedContent: null,
        jsonPath: null,
        expectedJsonValue: null,
        retryCount: 0,
      },
    });

    const jobs = await h.scheduler.queue.getJobs(['waiting', 'delayed', 'prioritized']);
    const now = jobs.filter((j) => j.id?.startsWith(`now-${id}-`));
    expect(now).toHaveLength(1);
    expect(now[0]?.data).toEqual(scheduler?.template);
  });

  it('accepts a lowercase method and stores it uppercase', async () => {
    const res = await create({ ...valid, method: 'post' });
    expect(res.status).toBe(201);
    expect(res.body.data.method).toBe('POST');
    const [row] = await h.ds.query('SELECT method FROM monitors WHERE id = $1', [res.body.data.id]);
    expect(row.method).toBe('POST');
  });

  it('accepts a timeout longer than the interval', async () => {
    const res = await create({ ...valid, timeout: 300, check_interval: 60 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ timeout: 300, check_interval: 60 });
  });

  it('accepts the harness minimum interval (1 s) and the 86400 s maximum', async () => {
    expect((await create({ ...valid, check_interval: 1 })).status).toBe(201);
    expect((await create({ ...valid, check_interval: 86400 })).status).toBe(201);
  });

  it('accepts the timeout bounds 5 and 300 and retry_count bounds 0 and 10', async () => {
    for (const extra of [{ timeout: 5 }, { timeout: 300 }, { retry_count: 0 }, { retry_count: 10 }]) {
      const res = await create({ ...valid, ...extra });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject(extra);
    }
  });

  describe('required fields', () => {
    it('names name, url and type when the body is empty', async () => {
      await expectFieldErrors(await create({}), ['name', 'url', 'type']);
    });

    it.each([
      ['name', { url: valid.url, type: 'http' }],
      ['url', { name: 'x', type: 'http' }],
      ['type', { name: 'x', url: valid.url }],
    ])('answers VALIDATION_ERROR (not INVALID_MONITOR_TYPE) when %s is missing', async (field, body) => {
      await expectFieldErrors(await create(body), [field]);
    });

    it('reports a missing type together with other invalid fields', async () => {
      await expectFieldErrors(await create({ name: 'x', url: 'nope', timeout: 1 }), ['type', 'url', 'timeout']);
    });

    it.each([
      'name',
      'url',
      'method',
      'timeout',
      'check_interval',
      'retry_count',
      'follow_redirects',
      'verify_ssl',
      'headers',
      'expected_status',
      'locations',
      'tags',
    ])('refuses null for %s', async (field) => {
      await expectFieldErrors(await create({ ...valid, [field]: null }), [field]);
    });
  });

  describe('type', () => {
    it.each([['icmp'], ['smtp'], ['https'], ['x'], [123], [null]])('answers INVALID_MONITOR_TYPE for %p', async (type) => {
      const res = await create({ ...valid, type });
      expectError(res, 400, 'INVALID_MONITOR_TYPE');
      expect(res.body.error.details).toEqual({ field: 'type', value: type });
      expect(await monitorCount()).toBe(0);
    });
  });

  describe('field rules', () => {
    it.each([
      ['url', '/relative/path'],
      ['url', 'example.com'],
      ['url', 'ftp://example.com/file'],
      ['url', 'not a url'],
      ['url', 'http://'],
      ['url', 'http:example.com'],
      ['url', ' https://example.com'],
      ['url', 42],
      ['name', ''],
      ['name', 'n'.repeat(201)],
      ['name', 5],
      ['timeout', 4],
      ['timeout', 301],
      ['timeout', 10.5],
      ['timeout', '30'],
      ['check_interval', 0],
      ['check_interval', 86401],
      ['retry_count', 11],
      ['retry_count', -1],
      ['method', 'FOO'],
      ['method', 7],
      ['expected_status', [99]],
      ['expected_status', [600]],
      ['expected_status', ['200']],
      ['expected_status', 200],
      ['headers', 'X-A: b'],
      ['headers', ['X-A', 'b']],
      ['headers', { 'X-A': 1 }],
      ['headers', { 'X-A': { nested: 'b' } }],
      ['headers', { 'X-A': 'b\r\nX-Injected: 1' }],
      ['headers', { 'bad header': 'b' }],
      ['tags', ['ok', 'has space']],
      ['tags', ['semi;colon']],
      ['tags', ['']],
      ['tags', 'prod'],
      ['tags', [1]],
      ['locations', 'eu-west'],
      ['follow_redirects', 'yes'],
      ['verify_ssl', 1],
      ['json_path', 'status'],
      ['expected_content', ''],
    ])('refuses %s = %p', async (field, value) => {
      await expectFieldErrors(await create({ ...valid, [field]: value }), [field]);
    });

    it.each(['id', 'status', 'owner_id', 'uptime_24h', 'created_at', 'updated_at', 'config_version', 'foo'])(
      'refuses the unknown or read-only field %s',
      async (field) => {
        const res = await create({ ...valid, [field]: field === 'status' ? 'online' : 1 });
        await expectFieldErrors(res, [field]);
        expect(res.body.error.details[field].join(' ')).toContain(field);
      },
    );

    it.each(['__proto__', 'constructor'])('refuses the field %s (no prototype tricks)', async (field) => {
      const raw = `{"name":"x","url":"https://example.com","type":"http","${field}":{"status":"online"}}`;
      const res = await request(h.app)
        .post('/api/v1/monitors')
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(raw);
      await expectFieldErrors(res, [field]);
    });
  });

  describe('with MIN_CHECK_INTERVAL_SECONDS=30', () => {
    let strict: ApiHarness;
    beforeAll(async () => {
      strict = await startApiHarness({ MIN_CHECK_INTERVAL_SECONDS: '30' });
    });
    afterAll(async () => {
      await strict.close();
    });

    const createStrict = (body: object) => request(strict.app).post('/api/v1/monitors').set('Authorization', auth).send(body);

    it('refuses check_interval 29', async () => {
      await expectFieldErrors(await createStrict({ ...valid, check_interval: 29 }), ['check_interval']);
    });

    it('refuses check_interval 29 on update too, changing nothing', async () => {
      const { id } = (await createStrict({ ...valid, check_interval: 30 })).body.data;
      for (const method of ['patch', 'put'] as const) {
        const res = await request(strict.app)[method](`/api/v1/monitors/${id}`).set('Authorization', auth).send({ check_interval: 29 });
        expectError(res, 400, 'VALIDATION_ERROR');
        expect(Object.keys(res.body.error.details)).toEqual(['check_interval']);
      }
      expect((await request(strict.app).get(`/api/v1/monitors/${id}`).set('Authorization', auth)).body.data.check_interval).toBe(30);
      expect((await strict.scheduler.scheduleOf(id))?.every).toBe(30_000);
    });

    it('accepts check_interval 30 and defaults to 300', async () => {
      expect((await createStrict({ ...valid, check_interval: 30 })).body.data.check_interval).toBe(30);
      expect((await createStrict(valid)).body.data.check_interval).toBe(300);
    });

    it('raises a preferred interval saved under a lower floor to the floor, and schedules that', async () => {
      await h.ds.query(`INSERT INTO user_preferences (user_id, default_check_interval, default_timeout) VALUES ($1, 10, 7)`, [userId]);
      const res = await createStrict(valid);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ check_interval: 30, timeout: 7 });
      expect((await strict.scheduler.scheduleOf(res.body.data.id))?.every).toBe(30_000);
    });
  });

  it("answers the owner's preferred interval, timeout and locations, and schedules with them", async () => {
    await h.ds.query(
      `INSERT INTO user_preferences (user_id, default_check_interval, default_timeout, default_locations) VALUES ($1, 45, 12, '{eu-west,us-east}')`,
      [userId],
    );
    const res = await create(valid);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ check_interval: 45, timeout: 12, locations: ['eu-west', 'us-east'] });
    const scheduler = await h.scheduler.scheduleOf(res.body.data.id);
    expect(scheduler?.every).toBe(45_000);
    expect((scheduler?.template as { check: { timeout: number } }).check.timeout).toBe(12);
    const got = await request(h.app).get(`/api/v1/monitors/${res.body.data.id}`).set('Authorization', auth);
    // GET one adds the monitor's upcoming maintenance windows (docs/alert-rules.md).
    expect(got.body.data).toEqual({ ...res.body.data, maintenance: [] });
  });

  it('leaves no monitor behind when its schedule cannot be written', async () => {
    const schedule = jest.spyOn(h.scheduler, 'schedule').mockRejectedValueOnce(new Error('Redis is gone'));
    try {
      expectError(await create(valid), 500, 'INTERNAL_ERROR');
    } finally {
      schedule.mockRestore();
    }
    expect(await monitorCount()).toBe(0);
    expect((await create(valid)).status).toBe(201);
    expect(await monitorCount()).toBe(1);
  });
});

describe('request bodies', () => {
  it('answers 400 VALIDATION_ERROR to malformed JSON', async () => {
    const res = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(await monitorCount()).toBe(0);
  });

  it.each([
    ['text/plain', 'name=x'],
    ['application/x-www-form-urlencoded', 'name=x&url=https%3A%2F%2Fexample.com&type=http'],
  ])('answers 415 UNSUPPORTED_MEDIA_TYPE to a %s body', async (type, body) => {
    const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).set('Content-Type', type).send(body);
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await monitorCount()).toBe(0);
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a JSON body over 1 MiB', async () => {
    const res = await create({ ...valid, body: 'x'.repeat(1024 * 1024) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(await monitorCount()).toBe(0);
  });

  it('parses a JSON body just under 1 MiB (and then validates it)', async () => {
    const res = await create({ ...valid, body: 'x'.repeat(1024 * 1024 - 200) });
    await expectFieldErrors(res, ['body']);
  });

  it.each([
    ['an array', [valid]],
    ['a string', '"http"'],
    ['a number', '42'],
    ['null', 'null'],
  ])('answers 400 VALIDATION_ERROR to %s', async (_what, body) => {
    const res = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(await monitorCount()).toBe(0);
  });

  it('answers 400 VALIDATION_ERROR to a POST without a body', async () => {
    const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth);
    expectError(res, 400, 'VALIDATION_ERROR');
  });
});
