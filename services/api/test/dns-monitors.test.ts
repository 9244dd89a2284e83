import request from 'supertest';
import { expandCheck, type RunCheckJob } from '@uptime/queues';
import { aCaller, startFakeDnsServer, type FakeDnsServer } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;
let dns: FakeDnsServer;

beforeAll(async () => {
  dns = await startFakeDnsServer();
});
afterAll(async () => {
  await dns.close();
});
beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

const api = (method: 'post' | 'patch' | 'put' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const createDns = (extra: Record<string, unknown> = {}) => api('post', '/monitors').send({ name: 'Apex', type: 'dns', url: 'dns://example.com', ...extra });

/** The 400 VALIDATION_ERROR naming exactly `fields`. */
function expectFieldErrors(res: request.Response, fields: string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
}

describe('dns monitors', () => {
  it('creates a dns monitor with its defaults, whose job carries its type and its own fields only', async () => {
    const res = await createDns({ timeout: 10 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'dns', url: 'dns://example.com', dns_record_type: 'A', dns_resolver: null, dns_protocol: 'udp', expected_dns_values: [], timeout: 10 });
    for (const field of ['method', 'headers', 'follow_redirects', 'verify_ssl', 'tcp_send', 'expected_content', 'json_path']) expect(res.body.data[field]).toBeNull();
    const schedule = await h.scheduler.scheduleOf(res.body.data.id);
    expect(expandCheck((schedule?.template as RunCheckJob).check)).toEqual({
      type: 'dns',
      url: 'dns://example.com',
      timeout: 10,
      dnsRecordType: 'A',
      dnsResolver: null,
      dnsProtocol: 'udp',
      expectedDnsValues: [],
      retryCount: 0,
    });
  });

  it('takes each dns field, the record type in any case', async () => {
    const res = await createDns({ dns_record_type: 'mx', dns_resolver: '1.1.1.1:53', dns_protocol: 'tcp', expected_dns_values: ['10 mx1.example.com', '20 mx2.example.com'] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ dns_record_type: 'MX', dns_resolver: '1.1.1.1:53', dns_protocol: 'tcp', expected_dns_values: ['10 mx1.example.com', '20 mx2.example.com'] });
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expect(http).toMatchObject({ dns_record_type: null, dns_resolver: null, dns_protocol: null, expected_dns_values: null, method: 'GET' });
  });

  it.each([
    ['dns_record_type', 'ANY'],
    ['dns_record_type', 5],
    ['dns_protocol', 'quic'],
    ['dns_resolver', 'a b'],
    ['dns_resolver', '1.1.1.1:70000'],
    ['dns_resolver', 'https://1.1.1.1/'],
    ['expected_dns_values', 'v'],
    ['expected_dns_values', ['']],
    ['expected_dns_values', ['x'.repeat(256)]],
    ['expected_dns_values', Array.from({ length: 51 }, () => 'v')],
    ['expected_dns_values', null],
  ])('refuses %s = %j with a 400 naming it', async (field, value) => {
    expectFieldErrors(await createDns({ [field]: value }), [field]);
  });

  it("refuses a field of another type, naming it, on create and on update", async () => {
    expectFieldErrors(await createDns({ method: 'GET', tcp_send: 'x' }), ['method', 'tcp_send']);
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/', dns_record_type: 'A' }), ['dns_record_type']);
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Db', type: 'tcp', url: 'tcp://db.example.com:5432', expected_dns_values: ['x'] }), ['expected_dns_values']);
    const { id } = (await createDns()).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ verify_ssl: false }), ['verify_ssl']);
    expect((await api('patch', `/monitors/${id}`).send({ dns_record_type: 'AAAA' })).body.data.dns_record_type).toBe('AAAA');
  });

  it.each([
    ['dns', 'https://example.com/'],
    ['dns', 'tcp://example.com:53'],
    ['dns', 'dns://exa mple.com'],
    ['dns', 'dns://example.com/path'],
    ['http', 'dns://example.com'],
    ['tcp', 'dns://example.com'],
  ])('refuses a %s monitor with url %s', async (type, url) => {
    expectFieldErrors(await api('post', '/monitors').send({ name: 'x', type, url }), ['url']);
  });

  it('changes the type to dns only together with a dns url', async () => {
    const { id } = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ type: 'dns' }), ['url']);
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ url: 'dns://example.com' }), ['url']);
    const changed = await api('patch', `/monitors/${id}`).send({ type: 'dns', url: 'dns://example.com', dns_record_type: 'NS' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ type: 'dns', url: 'dns://example.com', dns_record_type: 'NS', method: null });
  });

  it('filters the list by type=dns', async () => {
    const dnsId = (await createDns()).body.data.id;
    await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' }).expect(201);
    const res = await api('get', '/monitors?type=dns');
    expect((res.body.data as Array<{ id: number }>).map((m) => m.id)).toEqual([dnsId]);
  });

  it('tests a dns monitor now through its own probe, showing the answer (POST /monitors/{id}/test)', async () => {
    dns.set('api.example.test', 'A', { records: [{ type: 'A', name: 'api.example.test', ttl: 120, data: '192.0.2.10' }] });
    const { id } = (await createDns({ url: 'dns://api.example.test', dns_resolver: dns.resolver, expected_dns_values: ['192.0.2.10'] })).body.data;
    const up = await api('post', `/monitors/${id}/test`).send();
    expect(up.status).toBe(200);
    expect(up.body.data).toMatchObject({ status: 'up', status_code: null, error: null, dns: { response_code: 'NOERROR', answers: ['192.0.2.10'], min_ttl: 120 } });
    await api('patch', `/monitors/${id}`).send({ url: 'dns://gone.example.test' }).expect(200);
    const down = await api('post', `/monitors/${id}/test`).send();
    expect(down.body.data).toMatchObject({ status: 'down', error: 'DNS response code NXDOMAIN', dns: { response_code: 'NXDOMAIN', answers: [] } });
  });

  it("shows a dns check's response code, answers and lowest TTL in its results, and null for other checks", async () => {
    const { id } = (await createDns()).body.data;
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data.id;
    await h.ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, ok, response_time, dns_response_code, dns_answers, dns_min_ttl) VALUES ($1, now() - interval '1 minute', true, 4, 'NOERROR', $2, 300)`,
      [id, ['93.184.216.34', '93.184.216.35']],
    );
    await h.ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time) VALUES ($1, now() - interval '1 minute', true, 200, 40)`, [http]);
    const results = await api('get', `/monitors/${id}/results`);
    expect(results.status).toBe(200);
    expect(results.body.data[0]).toMatchObject({ status: 'up', response_time: 4, dns: { response_code: 'NOERROR', answers: ['93.184.216.34', '93.184.216.35'], min_ttl: 300 } });
    expect((await api('get', `/monitors/${http}/results`)).body.data[0].dns).toBeNull();
  });
});
