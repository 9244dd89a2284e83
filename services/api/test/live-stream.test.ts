import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { Server } from 'node:http';
import request from 'supertest';
import { aCaller } from '@uptime/testing';
import { createLogger } from '@uptime/logger';
import { publishLiveEvents, type LiveEvent } from '@uptime/queues';
import { createApp } from '../src/app';
import { useApiHarness } from './support/api-harness';
import { signedInSessionCookie } from './support/session-cookie';

const APP_URL = 'https://app.example.test/';
const SECRET = 'live-test-session-secret-0123456789';
const h = useApiHarness({ APP_URL, SESSION_SECRET: SECRET });
const LIFETIME_MS = 1_500;

let servers: Server[] = [];
let base: string;
/** A second api replica on the same Postgres and Redis. */
let replica: string;

/** An api keeping its streams open as production does (shorter); the harness's ends them at once. */
async function startReplica(): Promise<string> {
  const app = createApp({ config: h.config, dataSource: h.ds, redis: h.redis, scheduler: h.scheduler, logger: createLogger({ level: 'silent', service: 'live-test' }), liveStreamLifetimeMs: LIFETIME_MS });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  base = await startReplica();
  replica = await startReplica();
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers = [];
});

interface Stream {
  status: number;
  contentType: string;
  /** The events received so far, as (event, data) pairs. */
  events: { event: string; data: unknown }[];
  ended: Promise<void>;
  close(): void;
}

/** Opens the stream as EventSource would, collecting its events. */
function openStream(headers: Record<string, string>, query = '', at = base): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${at}/api/v1/live${query}`, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: Stream['events'] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
        }
      });
      const ended = new Promise<void>((done) => res.on('close', () => done()));
      resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type']), events, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

async function eventually(what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const check = (monitorId: number): LiveEvent => ({
  type: 'checks',
  checks: [{ monitor_id: monitorId, checked_at: '2026-11-22T10:00:00.000Z', result: 'down', response_time: null, monitor_status: 'offline', in_maintenance: false }],
});

describe('GET /live: the organization\'s live updates', () => {
  it('streams ready, then the events of the caller\'s organization only, and says bye when its lifetime ends', async () => {
    const mine = await aCaller(h.ds);
    const theirs = await aCaller(h.ds);
    const stream = await openStream({ Authorization: mine.auth });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await eventually('ready', () => stream.events.length > 0);
    const organizationId = (stream.events[0]!.data as { organization_id: number }).organization_id;
    expect(stream.events[0]).toEqual({ event: 'ready', data: { organization_id: organizationId } });
    const [theirOrganization] = (await h.ds.query(`SELECT organization_id FROM organization_members WHERE user_id = $1`, [theirs.user.id])) as { organization_id: number }[];
    expect(theirOrganization!.organization_id).not.toBe(organizationId);

    await publishLiveEvents(h.redis, h.config.redis.queuePrefix, new Map([[theirOrganization!.organization_id, [check(2)]]]));
    await publishLiveEvents(h.redis, h.config.redis.queuePrefix, new Map([[organizationId, [check(1), { type: 'status', monitor_id: 1, from: 'online', to: 'offline' }]]]));
    await eventually('the two events of its organization', () => stream.events.length >= 3);
    expect(stream.events.slice(1)).toEqual([
      { event: 'checks', data: check(1) },
      { event: 'status', data: { type: 'status', monitor_id: 1, from: 'online', to: 'offline' } },
    ]);
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual(['ready', 'checks', 'status', 'bye']);
  });

  it('reaches the streams of every api replica from one publish', async () => {
    const caller = await aCaller(h.ds);
    const streams = await Promise.all([openStream({ Authorization: caller.auth }), openStream({ Authorization: caller.auth }, '', replica)]);
    await eventually('both ready', () => streams.every((s) => s.events.length > 0));
    const organizationId = (streams[0]!.events[0]!.data as { organization_id: number }).organization_id;
    await publishLiveEvents(h.redis, h.config.redis.queuePrefix, new Map([[organizationId, [check(7)]]]));
    await eventually('the event on both replicas', () => streams.every((s) => s.events.length >= 2));
    for (const s of streams) {
      expect(s.events[1]).toEqual({ event: 'checks', data: check(7) });
      s.close();
    }
  });

  it('lets a session in from the web app only: another Origin or a cross-site page is 403, no caller 401', async () => {
    const caller = await aCaller(h.ds);
    const cookie = await signedInSessionCookie(caller.user.id, { secret: SECRET, prefix: h.config.redis.queuePrefix });
    const own = await openStream({ Cookie: cookie, Origin: 'https://app.example.test' });
    expect(own.status).toBe(200);
    own.close();
    const sameOrigin = await openStream({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
    sameOrigin.close();
    for (const headers of [{ Origin: 'https://evil.example.test' }, { 'Sec-Fetch-Site': 'cross-site' }]) {
      const res = await request(base).get('/api/v1/live').set('Cookie', cookie).set(headers);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
    }
    const anonymous = await request(base).get('/api/v1/live');
    expect({ status: anonymous.status, code: anonymous.body.error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('takes the organization as ?organization_id, checked as X-Organization-Id is', async () => {
    const caller = await aCaller(h.ds);
    const stranger = await aCaller(h.ds);
    const [foreign] = (await h.ds.query(`SELECT organization_id FROM organization_members WHERE user_id = $1`, [stranger.user.id])) as { organization_id: number }[];
    const res = await request(base).get(`/api/v1/live?organization_id=${foreign!.organization_id}`).set('Authorization', caller.auth);
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 404, code: 'ORGANIZATION_NOT_FOUND' });
    const bad = await request(base).get('/api/v1/live?organization_id=abc').set('Authorization', caller.auth);
    expect({ status: bad.status, code: bad.body.error?.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
  });
});
