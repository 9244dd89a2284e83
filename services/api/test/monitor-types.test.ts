import { createServer, type AddressInfo } from 'node:net';
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

const api = (method: 'post' | 'patch' | 'put' | 'get', path: string) => request(h.app)[method](`/api/v1${path}`).set('Authorization', auth);
const createTcp = (extra: Record<string, unknown> = {}) => api('post', '/monitors').send({ name: 'Postgres', type: 'tcp', url: 'tcp://db.example.com:5432', ...extra });

describe('monitor types', () => {
  it('creates a tcp monitor whose job carries its type and its own fields only', async () => {
    const res = await createTcp({ tcp_send: 'PING\r\n', expected_content: '+PONG', timeout: 10 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'tcp', url: 'tcp://db.example.com:5432', tcp_send: 'PING\r\n', expected_content: '+PONG', timeout: 10, verify_ssl: true });
    const schedule = await h.scheduler.scheduleOf(res.body.data.id);
    expect(expandCheck((schedule?.template as RunCheckJob).check)).toEqual({
      type: 'tcp',
      url: 'tcp://db.example.com:5432',
      timeout: 10,
      verifySsl: true,
      tcpSend: 'PING\r\n',
      expectedContent: '+PONG',
      excludedContent: null,
      retryCount: 0,
    });
  });

  it("answers another type's fields as null", async () => {
    const tcp = (await createTcp()).body.data;
    for (const field of ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value']) expect(tcp[field]).toBeNull();
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expect(http).toMatchObject({ tcp_send: null, method: 'GET', follow_redirects: true });
  });

  it("refuses a field of another type, naming it, on create and on update", async () => {
    expectFieldErrors(await createTcp({ method: 'POST', json_path: '$.a' }), ['method', 'json_path']);
    expectFieldErrors(await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/', tcp_send: 'x' }), ['tcp_send']);
    const { id } = (await createTcp()).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ follow_redirects: false }), ['follow_redirects']);
    expect((await api('patch', `/monitors/${id}`).send({ tcp_send: 'HELO' })).body.data.tcp_send).toBe('HELO');
  });

  it('bounds tcp_send in bytes as sent, not in characters', async () => {
    // 1,024 characters, but 1,025 bytes as UTF-8: "é" takes two.
    const over = await createTcp({ tcp_send: `${'a'.repeat(1022)}é` + 'b' });
    expectFieldErrors(over, ['tcp_send']);
    expect(JSON.stringify(over.body.error)).toContain('at most 1024 bytes as UTF-8');
    const within = await createTcp({ tcp_send: `${'a'.repeat(1022)}é` });
    expect(within.status).toBe(201);
  });

  it.each([
    ['tcp', 'https://example.com/'],
    ['http', 'tcp://example.com:22'],
    ['tcp', 'tcp://example.com'],
    ['tcp', 'tcp://example.com:22/path'],
  ])('refuses a %s monitor with url %s', async (type, url) => {
    expectFieldErrors(await api('post', '/monitors').send({ name: 'x', type, url }), ['url']);
  });

  it('changes the type only together with a url of the new type', async () => {
    const { id } = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data;
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ type: 'tcp' }), ['url']);
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ type: 'tcp', url: 'https://example.com/' }), ['url']);
    expectFieldErrors(await api('patch', `/monitors/${id}`).send({ url: 'tls://example.com:443' }), ['url']);
    const changed = await api('patch', `/monitors/${id}`).send({ type: 'tcp', url: 'tls://example.com:443' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ type: 'tcp', url: 'tls://example.com:443', method: null });
  });

  it('filters the list by type', async () => {
    const tcp = (await createTcp()).body.data.id;
    const http = (await api('post', '/monitors').send({ name: 'Site', type: 'http', url: 'https://example.com/' })).body.data.id;
    const ids = async (query: string) => ((await api('get', `/monitors${query}`)).body.data as Array<{ id: number }>).map((m) => m.id);
    expect(await ids('?type=tcp')).toEqual([tcp]);
    expect(await ids('?type=http')).toEqual([http]);
    expect(await ids('?type=https')).toEqual([http]);
  });

  it('tests a tcp monitor now through its own probe (POST /monitors/{id}/test)', async () => {
    const server = createServer((socket) => socket.end('220 smtp.local ESMTP\r\n'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const { id } = (await createTcp({ url: `tcp://127.0.0.1:${port}`, expected_content: '220 ' })).body.data;
      const up = await api('post', `/monitors/${id}/test`).send();
      expect(up.status).toBe(200);
      expect(up.body.data).toMatchObject({ status: 'up', status_code: null, error: null });
      await api('patch', `/monitors/${id}`).send({ expected_content: '250 ' }).expect(200);
      const down = await api('post', `/monitors/${id}/test`).send();
      expect(down.body.data).toMatchObject({ status: 'down', error: 'Expected content not found: "250 "' });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
