import request from 'supertest';
import { expandCheck, type RunCheckJob } from '@uptime/queues';
import { aCaller } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';
import { expectFieldErrors } from './support/field-errors';

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

const api = (method: 'post' | 'patch' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const createPing = (extra: Record<string, unknown> = {}) => api('post', '/monitors').send({ name: 'Router', type: 'ping', url: 'ping://router.example.com', ...extra });

describe('ping monitors', () => {
  it('creates a ping monitor whose job carries its type and its own fields only, ping_count 3 by default', async () => {
    const res = await createPing({ timeout: 10 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'ping', url: 'ping://router.example.com', ping_count: 3, timeout: 10, retry_count: 0 });
    const schedule = await h.scheduler.scheduleOf(res.body.data.id);
    expect(expandCheck((schedule?.template as RunCheckJob).check)).toEqual({ type: 'ping', url: 'ping://router.example.com', timeout: 10, pingCount: 3, retryCount: 0 });
    const five = await createPing({ url: 'ping://[2001:db8::1]', ping_count: 5 });
    expect(five.body.data).toMatchObject({ url: 'ping://[2001:db8::1]', ping_count: 5 });
  });

  it("answers another type's fields as null, and ping_count as null on other types", async () => {
    const ping = (await createPing()).body.data;
    for (const field of ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value', 'tcp_send', 'expected_content', 'verify_ssl']) {
      expect({ field, value: ping[field] }).toEqual({ field, value: null });
    }
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expect(http).toMatchObject({ ping_count: null, method: 'GET' });
  });

  it('refuses a field of another type, naming it, on create and on update', async () => {
    expectFieldErrors(await createPing({ method: 'POST', tcp_send: 'x', expected_content: 'a' }), ['method', 'tcp_send', 'expected_content']);
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/', ping_count: 2 }), ['ping_count']);
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Db', type: 'tcp', url: 'tcp://db.example.com:5432', ping_count: 2 }), ['ping_count']);
    const { id } = (await createPing()).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ verify_ssl: false }), ['verify_ssl']);
    expect((await api('patch', `/monitors/${id}`).send({ ping_count: 10 })).body.data.ping_count).toBe(10);
  });

  it.each([
    ['ping', 'https://example.com/', 'url'],
    ['ping', 'tcp://example.com:22', 'url'],
    ['http', 'ping://example.com', 'url'],
    ['tcp', 'ping://example.com', 'url'],
    ['ping', 'ping://example.com:7', 'url'],
    ['ping', 'ping://example.com/x', 'url'],
    ['ping', 'ping://user@example.com', 'url'],
    ['ping', 'ping://', 'url'],
  ])('refuses a %s monitor with url %s', async (type, url, field) => {
    expectFieldErrors(await api('post', '/monitors').send({ name: 'x', type, url }), [field]);
  });

  it.each([0, 11, 2.5, '3', null])('refuses ping_count %p (an integer from 1 to 10)', async (value) => {
    expectFieldErrors(await createPing({ ping_count: value }), ['ping_count']);
  });

  it('changes the type only together with a url of the new type', async () => {
    const { id } = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ type: 'ping' }), ['url']);
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ type: 'ping', url: 'https://example.com/' }), ['url']);
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ url: 'ping://example.com' }), ['url']);
    const changed = await api('patch', `/monitors/${id}`).send({ type: 'ping', url: 'ping://example.com' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ type: 'ping', url: 'ping://example.com', method: null, ping_count: 3 });
    const back = await api('patch', `/monitors/${id}`).send({ type: 'http', url: 'https://example.com/' });
    expect(back.body.data).toMatchObject({ type: 'http', ping_count: null, method: 'GET' });
  });

  it('filters the list by type=ping', async () => {
    const ping = (await createPing()).body.data.id;
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data.id;
    const ids = async (query: string) => ((await api('get', `/monitors${query}`)).body.data as Array<{ id: number }>).map((m) => m.id);
    expect(await ids('?type=ping')).toEqual([ping]);
    expect(await ids('?type=http')).toEqual([http]);
    const bad = await api('get', '/monitors?type=icmp');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.type[0]).toContain('ping');
  });

  it('tests a ping monitor now (POST /monitors/{id}/test): 127.0.0.1 up with its loss and round trips', async () => {
    const { id } = (await createPing({ url: 'ping://127.0.0.1', ping_count: 1, timeout: 5 })).body.data;
    const up = await api('post', `/monitors/${id}/test`).send();
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ status: 'up', status_code: null, error: null, ping: { packet_loss: 0, rtt_min: expect.any(Number), rtt_avg: expect.any(Number), rtt_max: expect.any(Number) } });
    expect(up.body.data.response_time).toBe(Math.round(up.body.data.ping.rtt_avg));
  });
});
