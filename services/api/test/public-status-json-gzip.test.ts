import { once } from 'node:events';
import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
let user: User;
let auth: string;
let server: Server;

beforeAll(async () => {
  server = h.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The answer's bytes as sent: supertest inflates gzip leniently, which would hide a broken stream. */
function rawGet(slug: string, headers: Record<string, string>): Promise<RawAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: `/api/v1/public/status-pages/${slug}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

interface PublicJson {
  data: { title: string; monitors: { name: string; days: unknown[] }[] };
  meta: { timestamp: string; request_id: string };
}

/** The JSON of an answer; gunzipSync checks the gzip trailer (CRC-32 and length) and that the stream ends. */
const jsonOf = (answer: RawAnswer): PublicJson =>
  JSON.parse((answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8')) as PublicJson;

async function aPage(slug: string, names: string[]): Promise<number> {
  const ids = [];
  for (const name of names) ids.push((await aMonitor(h.ds, user, { name, status: 'online' })).id);
  const res = await request(h.app)
    .post('/api/v1/status-pages')
    .set('Authorization', auth)
    .send({ slug, title: 'Before', monitor_ids: ids });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const GZIP = { 'accept-encoding': 'gzip, deflate, br' };
const IDENTITY = { 'accept-encoding': 'identity' };

describe('GET /api/v1/public/status-pages/{slug}, gzip and plain', () => {
  it('answers gzip to a client that takes it and plain JSON to one that does not, the same data under a tag of each', async () => {
    await aPage('both-ways', ['One', 'Two', 'Three']);
    const zipped = await rawGet('both-ways', GZIP);
    const plain = await rawGet('both-ways', IDENTITY);
    // No Accept-Encoding at all (curl without --compressed): plain, as for identity.
    const unstated = await rawGet('both-ways', {});
    expect([zipped, plain, unstated].map((a) => [a.status, a.headers['content-encoding']])).toEqual([
      [200, 'gzip'],
      [200, undefined],
      [200, undefined],
    ]);
    expect(unstated.headers.etag).toBe(plain.headers.etag);
    for (const answer of [zipped, plain, unstated]) {
      expect(answer.headers.vary).toMatch(/Accept-Encoding/);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(jsonOf(answer).meta.request_id).toBe(answer.headers['x-request-id']);
    }
    expect(jsonOf(zipped).data).toEqual(jsonOf(plain).data);
    expect(jsonOf(zipped).data.monitors.map((m) => [m.name, m.days.length])).toEqual([
      ['One', 90],
      ['Two', 90],
      ['Three', 90],
    ]);
    expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
    expect([zipped.headers.etag, plain.headers.etag]).toEqual([
      expect.stringMatching(/^W\/".+-gz"$/),
      expect.stringMatching(/^W\/"[^"]+"$/),
    ]);
    expect(zipped.headers.etag).not.toBe(plain.headers.etag);
  });

  it('answers 304 to If-None-Match naming the tag of the encoding asked for', async () => {
    await aPage('not-modified', ['One']);
    const zipped = await rawGet('not-modified', GZIP);
    const plain = await rawGet('not-modified', IDENTITY);
    const again = await rawGet('not-modified', { ...GZIP, 'if-none-match': zipped.headers.etag! });
    const plainAgain = await rawGet('not-modified', { ...IDENTITY, 'if-none-match': plain.headers.etag! });
    expect([again.status, again.body.length, plainAgain.status, plainAgain.body.length]).toEqual([304, 0, 304, 0]);
    // A tag names one encoding's bytes: the other encoding is answered in full.
    const crossed = await rawGet('not-modified', { ...IDENTITY, 'if-none-match': zipped.headers.etag! });
    expect([crossed.status, crossed.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it('frames each answer with its own meta around the data cached once', async () => {
    await aPage('framed', ['One']);
    const ids = ['first-request', 'second-request', 'third-request'];
    const answers = [];
    for (const id of ids) answers.push(await rawGet('framed', { ...GZIP, 'x-request-id': id }));
    expect(answers.map((a) => jsonOf(a).meta.request_id)).toEqual(ids);
    expect(new Set(answers.map((a) => a.headers.etag)).size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(jsonOf(a).data))).size).toBe(1);
    expect(answers.every((a) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(jsonOf(a).meta.timestamp))).toBe(true);
  });

  it('shows an owner change at once in both encodings', async () => {
    const id = await aPage('changed', ['One']);
    const before = [await rawGet('changed', GZIP), await rawGet('changed', IDENTITY)];
    expect(before.map((a) => jsonOf(a).data.title)).toEqual(['Before', 'Before']);
    expect((await request(h.app).patch(`/api/v1/status-pages/${id}`).set('Authorization', auth).send({ title: 'After' })).status).toBe(200);
    const after = [await rawGet('changed', GZIP), await rawGet('changed', IDENTITY)];
    expect(after.map((a) => jsonOf(a).data.title)).toEqual(['After', 'After']);
    expect(after.map((a) => a.headers.etag)).not.toContain(before[0]!.headers.etag);
    expect(after.map((a) => a.headers.etag)).not.toContain(before[1]!.headers.etag);
  });
});

describe('a cache entry written before the JSON was kept gzipped', () => {
  const key = (slug: string): string => `${h.config.redis.queuePrefix}:public:page:${slug}`;
  const olderEntry = { found: '1', json_version: 'older', json: '{"title":"Older"}', html_version: 'older', html_gz: 'x' };

  it('is a miss for a gzip reader, who fills it again from Postgres', async () => {
    await aPage('older', ['One']);
    await h.redis.hset(key('older'), olderEntry);
    const answer = await rawGet('older', GZIP);
    expect([answer.status, jsonOf(answer).data.title]).toEqual([200, 'Before']);
    expect(await h.redis.hexists(key('older'), 'json_gz')).toBe(1);
  });

  it('is not taken by a reader waiting for another replica to fill: it waits, then fills itself', async () => {
    await aPage('deploying', ['One']);
    // Another replica holds the fill lock; meanwhile an older replica wrote its own kind of entry.
    await h.redis.set(`${key('deploying')}:filling`, '1', 'PX', 60_000);
    await h.redis.hset(key('deploying'), olderEntry);
    const answer = await rawGet('deploying', GZIP);
    expect([answer.status, jsonOf(answer).data.title]).toEqual([200, 'Before']);
  });
});
