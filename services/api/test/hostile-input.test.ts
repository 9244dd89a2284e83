import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { createApiServer } from '../src/http/server-limits';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  auth = (await aCaller(h.ds)).auth;
});

const monitorBody = (extra: Record<string, unknown> = {}) => ({ name: 'Shop', url: 'https://shop.example/health', type: 'http', ...extra });

/** A raw JSON body, for what JSON.stringify would not write (a literal `__proto__` key). */
const postRaw = (path: string, json: string) =>
  request(h.app).post(`/api/v1${path}`).set('Authorization', auth).set('Content-Type', 'application/json').send(json);

function expect400(res: request.Response, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details ?? {})).toContain(field);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+:\d+:\d+/);
  expectMeta(res);
}

describe('no 500 from input', () => {
  it('answers a malformed percent-escape in a path parameter 400', async () => {
    for (const path of ['/monitors/%FF', '/agents/%C0%AF', '/notifications/%E0%A4%A', '/monitors/%FF/results']) {
      const res = await request(h.app).get(`/api/v1${path}`).set('Authorization', auth);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect400(res, 'path');
    }
  });

  it('refuses JSON nested deeper than 32 levels, small or 2,000 deep', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect400(await postRaw('/monitors', `{"name":"x","url":"https://a.example","headers":{"a":${nested(40)}}}`), 'headers.a' + '[0]'.repeat(30));
    const deep = await postRaw('/monitors', `{"name":${nested(2000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error.code).toBe('VALIDATION_ERROR');
    // 31 levels below the root object is still fine as far as nesting goes (the field itself is then invalid).
    const shallow = await postRaw('/monitors', `{"name":${nested(31)}}`);
    expect(shallow.status).toBe(400);
    expect(Object.keys(shallow.body.error.details)).not.toContain('name' + '[0]'.repeat(31));
  });

  it('refuses __proto__, constructor and prototype keys in monitor headers, alert settings and bulk settings, and pollutes nothing', async () => {
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      expect400(await postRaw('/monitors', `{"name":"x","url":"https://a.example","headers":{"${key}":{"polluted":"yes"}}}`), `headers.${key}`);
      expect400(await postRaw('/monitors/bulk', `{"action":"update","monitor_ids":[1],"settings":{"${key}":{"polluted":"yes"}}}`), `settings.${key}`);
      const alert = await request(h.app)
        .put('/api/v1/alerts/settings')
        .set('Authorization', auth)
        .set('Content-Type', 'application/json')
        .send(`{"${key}":{"polluted":"yes"}}`);
      expect400(alert, key);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a NUL character in any text 400 naming the field, in the body and the query', async () => {
    expect400(await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send(monitorBody({ name: 'a\u0000b' })), 'name');
    expect400(await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send(monitorBody({ body: 'x\u0000' })), 'body');
    expect400(
      await request(h.app).post('/api/v1/agents').set('Authorization', auth).send({ name: 'A', location: 'eu\u0000', url: 'https://agent.example' }),
      'location',
    );
    expect400(await request(h.app).get('/api/v1/monitors?search=%00').set('Authorization', auth), 'search');
  });

  it('answers a number beyond what Postgres holds 400, not 500', async () => {
    const res = await request(h.app).post('/api/v1/monitors/bulk').set('Authorization', auth).send({ action: 'pause', monitor_ids: [1e20] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe("Node's HTTP parser and slow clients", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createApiServer(h.app, { headersMs: 1000, requestMs: 2000, keepAliveMs: 1000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Writes `raw` (in pieces, `gapMs` apart) and returns everything the server sent until it closed, and when. */
  function exchange(pieces: (string | Buffer)[], gapMs = 0): Promise<{ text: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('close', () => resolve({ text, ms: Date.now() - started }));
      socket.on('error', reject);
      socket.on('connect', async () => {
        for (const piece of pieces) {
          if (socket.destroyed) return;
          socket.write(piece);
          if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        }
      });
    });
  }

  function expectEnvelope(text: string, status: number): void {
    expect(text.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    const [head, body] = text.split('\r\n\r\n');
    const requestId = /x-request-id: ([\w-]+)/i.exec(head!)?.[1];
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(JSON.parse(body!)).toEqual({
      error: { code: 'VALIDATION_ERROR', message: expect.any(String) },
      meta: { timestamp: expect.any(String), request_id: requestId },
    });
  }

  it('answers a 20 KB query string 431 in the error envelope with X-Request-Id', async () => {
    const { text } = await exchange([`GET /api/v1/monitors?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`]);
    expectEnvelope(text, 431);
  });

  it('answers a NUL in a header value and a bad header name 400 in the error envelope', async () => {
    expectEnvelope((await exchange([Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n', 'latin1')])).text, 400);
    expectEnvelope((await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n'])).text, 400);
  });

  it('cuts a body trickled slower than the request deadline with 408', async () => {
    const head = 'POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const { text, ms } = await exchange([head, ...'{"name":"slow"'.split('')], 400);
    expectEnvelope(text, 408);
    // requestMs 2 s, checked every second.
    expect(ms).toBeLessThan(4000);
  });

  it('closes a connection whose headers never finish, and an idle keep-alive connection', async () => {
    const unfinished = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\n']);
    expect(unfinished.ms).toBeLessThan(3500);
    const idle = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(idle.text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(idle.ms).toBeLessThan(3000);
  });
});
