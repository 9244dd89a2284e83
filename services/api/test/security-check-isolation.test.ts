import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { Monitor } from '@uptime/db';
import { REFUSED_CHECK_HEADERS, runProbe } from '@uptime/probe';
import { checkConfigOf } from '@uptime/queues';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

/**
 * Two tenants checking the same keep-alive target: tenant A tries every header that frames or
 * routes a request, and smuggles a second request any other way it can; tenant B must only ever
 * read answers to its own requests. The target records the raw bytes of every connection.
 */
interface Connection {
  raw: string;
  /** Paths of the requests the server parsed on this connection, in order. */
  paths: string[];
}

let target: Server;
let targetUrl: string;
const connections: Connection[] = [];

beforeAll(async () => {
  const bySocket = new Map<Socket, Connection>();
  // Node's server keeps connections open and answers pipelined requests one after the other,
  // like a real keep-alive site; each answer names the request it answers.
  target = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    bySocket.get(req.socket)?.paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.end(`answer to ${req.url}`));
  });
  target.on('connection', (socket: Socket) => {
    const connection: Connection = { raw: '', paths: [] };
    bySocket.set(socket, connection);
    connections.push(connection);
    socket.on('data', (chunk: Buffer) => {
      connection.raw += chunk.toString('latin1');
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

const h = useApiHarness({ ALLOW_PRIVATE_TARGETS: 'true' });

/** Every spelling tenant A tries: each refused name, in other letter cases too. */
const FRAMING_HEADERS: Record<string, string> = {
  Host: 'metadata.google.internal',
  'content-length': '5',
  'Transfer-Encoding': 'chunked',
  CONNECTION: 'keep-alive',
  'Keep-Alive': 'timeout=60',
  Upgrade: 'websocket',
  te: 'trailers',
  Trailer: 'X-Smuggled',
  Expect: '100-continue',
  'Proxy-Authorization': 'Basic eDp5',
  'proxy-connection': 'keep-alive',
};

describe('headers that frame or route a check', () => {
  it('lists every refused name in one place', () => {
    expect([...REFUSED_CHECK_HEADERS]).toEqual(['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'TE', 'Trailer', 'Expect', 'Proxy-*']);
  });

  it.each(Object.entries(FRAMING_HEADERS))('refuses %s on create, PATCH, PUT and bulk update with a 400 naming it', async (name, value) => {
    const { user, auth } = await aCaller(h.ds);
    const existing = await aMonitor(h.ds, user, { url: `${targetUrl}/a`, headers: { 'X-Tenant': 'a' } });
    const headers = { Accept: 'text/plain', [name]: value };
    const attempts = [
      request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'a', url: `${targetUrl}/a`, type: 'http', headers }),
      request(h.app).patch(`/api/v1/monitors/${existing.id}`).set('Authorization', auth).send({ headers }),
      request(h.app).put(`/api/v1/monitors/${existing.id}`).set('Authorization', auth).send({ headers }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.headers).toEqual([expect.stringContaining(`header ${name} is not allowed`)]);
    }
    const bulk = await request(h.app)
      .post('/api/v1/monitors/bulk')
      .set('Authorization', auth)
      .send({ action: 'update', monitor_ids: [existing.id], settings: { headers } });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error.details['settings.headers']).toEqual([expect.stringContaining(`header ${name} is not allowed`)]);
    expect(await h.ds.getRepository(Monitor).count()).toBe(1);
    expect((await h.ds.getRepository(Monitor).findOneByOrFail({ id: existing.id })).headers).toEqual({ 'X-Tenant': 'a' });
  });

  it('names every refused header of one body', async () => {
    const { auth } = await aCaller(h.ds);
    const res = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .send({ name: 'a', url: `${targetUrl}/a`, type: 'http', headers: { Host: 'x', 'Transfer-Encoding': 'chunked', 'X-Ok': '1' } });
    expect(res.status).toBe(400);
    const [message] = res.body.error.details.headers as string[];
    expect(message).toContain('header Host is not allowed');
    expect(message).toContain('header Transfer-Encoding is not allowed');
    expect(message).not.toContain('X-Ok');
  });

  it('still accepts ordinary headers', async () => {
    const { auth } = await aCaller(h.ds);
    const headers = { Authorization: 'Bearer t', 'X-Forwarded-Host': 'example.com', Accept: 'application/json', 'User-Agent': 'me' };
    const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: 'a', url: `${targetUrl}/a`, type: 'http', headers });
    expect(res.status).toBe(201);
    expect(res.body.data.headers).toEqual(headers);
  });
});

describe('two tenants checking one keep-alive target', () => {
  it('never lets tenant B read an answer to tenant A’s request', async () => {
    const alice = await aCaller(h.ds);
    const bob = await aCaller(h.ds);
    // A stored before the header rule existed: its job template still carries a smuggling header.
    const smuggled = 'GET /a-smuggled HTTP/1.1\r\nHost: x\r\n\r\n';
    const legacy = await aMonitor(h.ds, alice.user, {
      url: `${targetUrl}/a-legacy`,
      method: 'POST',
      body: `hello${smuggled}`,
      headers: { 'Content-Length': '5' },
    });
    // A's other tries: a second request written into a correctly framed body, and a plain check.
    const inBody = await aMonitor(h.ds, alice.user, { url: `${targetUrl}/a-body`, method: 'POST', body: smuggled });
    const plainA = await aMonitor(h.ds, alice.user, { url: `${targetUrl}/a-plain` });
    const b = await aMonitor(h.ds, bob.user, { url: `${targetUrl}/b`, expectedContent: 'answer to /b' });
    connections.length = 0;

    const legacyResult = await runProbe(checkConfigOf(legacy), { allowPrivateTargets: true });
    expect(legacyResult).toMatchObject({ ok: false, statusCode: null });
    expect(legacyResult.error).toContain('header Content-Length is not allowed');
    expect(connections).toHaveLength(0);

    // Scheduled checks (the worker's probe call) and "test now" of both tenants, interleaved.
    const scheduled = (m: Monitor) => runProbe(checkConfigOf(m), { allowPrivateTargets: true });
    const testNow = (m: Monitor, auth: string) => request(h.app).post(`/api/v1/monitors/${m.id}/test`).set('Authorization', auth);
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const [, , bScheduled, , bTested] = await Promise.all([
          scheduled(inBody),
          scheduled(plainA),
          scheduled(b),
          testNow(inBody, alice.auth),
          testNow(b, bob.auth),
          testNow(plainA, alice.auth),
        ]);
        return { bScheduled, bTested };
      }),
    );
    for (const { bScheduled, bTested } of rounds) {
      expect(bScheduled).toMatchObject({ ok: true, statusCode: 200, error: null });
      expect(bTested.status).toBe(200);
      expect(bTested.body.data).toMatchObject({ status: 'up', error: null });
    }

    // Each check had a connection of its own, carrying its one request and nothing else.
    expect(connections).toHaveLength(8 * 6);
    for (const connection of connections) {
      expect(connection.paths).toHaveLength(1);
      expect(connection.raw).toMatch(/\r\nconnection: close\r\n/i);
    }
    const bConnections = connections.filter((c) => c.paths[0] === '/b');
    expect(bConnections).toHaveLength(16);
    for (const connection of bConnections) expect(connection.raw).not.toContain('/a-');
    // The smuggled text reached the target only as the body of A's own request.
    expect(connections.some((c) => c.paths.includes('/a-smuggled'))).toBe(false);
  });
});
