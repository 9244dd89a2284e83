import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { expectMeta, useApiHarness } from './support/api-harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Client = ReturnType<typeof request>;

const h = useApiHarness();
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

describe('unknown routes', () => {
  it.each([
    ['get', '/api/v1/nope'],
    ['post', '/api/v1/monitors/1/nope'],
    ['get', '/api/v2/monitors'],
    ['get', '/'],
    ['delete', '/api/v1/monitors'],
  ] as const)('answers %s %s with a 404 NOT_FOUND envelope', async (method, path) => {
    const res = await request(h.app)[method](path).set('Authorization', auth);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
    expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message']);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expectMeta(res);
  });
});

describe('X-Request-Id', () => {
  it.each([
    ['a success', (r: Client) => r.get('/api/v1/monitors').set('Authorization', auth), 200],
    ['a 201', (r: Client) => r.post('/api/v1/auth/tokens').set('Authorization', auth).send({ name: 'x' }), 201],
    ['a 401', (r: Client) => r.get('/api/v1/monitors'), 401],
    ['a 404', (r: Client) => r.get('/nowhere'), 404],
    ['a 400', (r: Client) => r.get('/api/v1/monitors?page=0').set('Authorization', auth), 400],
    ['a 415', (r: Client) => r.post('/api/v1/monitors').set('Authorization', auth).set('Content-Type', 'text/plain').send('x'), 415],
  ])('is on %s, equal to meta.request_id', async (_what, send, status) => {
    const res = await send(request(h.app));
    expect(res.status).toBe(status);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expectMeta(res);
  });

  it('differs between requests', async () => {
    const a = await request(h.app).get('/api/v1/monitors').set('Authorization', auth);
    const b = await request(h.app).get('/api/v1/monitors').set('Authorization', auth);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it.each(['req-12345678', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', 'trace.abc_DEF-0001'])('echoes the sane incoming id %p', async (id) => {
    const res = await request(h.app).get('/api/v1/monitors').set('Authorization', auth).set('X-Request-Id', id);
    expect(res.headers['x-request-id']).toBe(id);
    expect(res.body.meta.request_id).toBe(id);
  });

  it.each(['short', 'x'.repeat(65), 'has space in it', '<script>alert(1)</script>', 'id;with;semicolons'])(
    'replaces the unsafe incoming id %p',
    async (id) => {
      const res = await request(h.app).get('/api/v1/monitors').set('Authorization', auth).set('X-Request-Id', id);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expectMeta(res);
    },
  );
});

describe('request bodies', () => {
  /** supertest re-serialises Buffers sent as JSON, so compressed bodies go through node:http. */
  async function rawPost(
    headers: Record<string, string>,
    body: Buffer,
  ): Promise<{ status: number; body: { error?: { code: string }; data?: { name: string } } }> {
    const server = h.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/monitors',
            headers: { ...headers, authorization: auth, 'content-length': String(body.length) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    } finally {
      server.close();
    }
  }

  const gzipJson = (value: unknown) => gzipSync(JSON.stringify(value));

  it('reads a gzip-encoded JSON body', async () => {
    const res = await rawPost(
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipJson({ name: 'zipped', url: 'https://zip.example/', type: 'http' }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data?.name).toBe('zipped');
  });

  it('answers 400 VALIDATION_ERROR, not 500, to a corrupt gzip body', async () => {
    const res = await rawPost({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, Buffer.from('definitely not gzip'));
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('VALIDATION_ERROR');
  });

  it('answers 415 to an unknown Content-Encoding', async () => {
    const res = await rawPost({ 'content-type': 'application/json', 'content-encoding': 'compress-9000' }, Buffer.from('{}'));
    expect(res.status).toBe(415);
    expect(res.body.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 413 to a gzip body that inflates past 1 MiB', async () => {
    const body = gzipJson({ name: 'big', url: 'https://zip.example/', type: 'http', body: 'x'.repeat(2 * 1024 * 1024) });
    expect(body.length).toBeLessThan(64 * 1024);
    const res = await rawPost({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, body);
    expect(res.status).toBe(413);
    expect(res.body.error?.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('errors', () => {
  it('never answers a stack, SQL or internals in an error', async () => {
    const res = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{bad json');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body)).not.toMatch(/stack|node_modules|at .*\.js:\d+|SyntaxError/);
  });

  it('answers JSON without an X-Powered-By header', async () => {
    const res = await request(h.app).get('/api/v1/monitors').set('Authorization', auth);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});
