import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aMonitor } from '@uptime/testing';
import { TAG_FILTER_MAX_LENGTH } from '../src/monitors/list-monitors.params';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
let user: User;
let auth: string;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
});

const list = (query = '', as = auth) => request(h.app).get(`/api/v1/monitors${query}`).set('Authorization', as);
const idsOf = (res: request.Response): number[] => res.body.data.map((m: { id: number }) => m.id);
const namesOf = (res: request.Response): string[] => res.body.data.map((m: { name: string }) => m.name);

async function manyMonitors(n: number, owner = user): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i += 1) ids.push((await aMonitor(h.ds, owner, { name: `m${i}` })).id);
  return ids;
}

function expectValidation(res: request.Response, field: string): void {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.body.error.details)).toEqual([field]);
  expectMeta(res);
}

describe('GET /monitors pagination', () => {
  it('defaults to page 1 with 25 per page', async () => {
    const ids = await manyMonitors(30);
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expectMeta(res);
    expect(idsOf(res)).toEqual(ids.slice(0, 25));
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 30, pages: 2, has_next: true, has_prev: false });
  });

  it('answers an empty page for no monitors', async () => {
    const res = await list('?limit=10');
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 0, pages: 0, has_next: false, has_prev: false });
  });

  it('answers one page for one monitor', async () => {
    const ids = await manyMonitors(1);
    const res = await list('?limit=10');
    expect(idsOf(res)).toEqual(ids);
    expect(res.body.pagination).toEqual({ page: 1, limit: 10, total: 1, pages: 1, has_next: false, has_prev: false });
  });

  it('pages through 30 monitors 10 at a time', async () => {
    const ids = await manyMonitors(30);
    const p1 = await list('?limit=10&page=1');
    expect(idsOf(p1)).toEqual(ids.slice(0, 10));
    expect(p1.body.pagination).toEqual({ page: 1, limit: 10, total: 30, pages: 3, has_next: true, has_prev: false });
    const p3 = await list('?limit=10&page=3');
    expect(idsOf(p3)).toEqual(ids.slice(20, 30));
    expect(p3.body.pagination).toEqual({ page: 3, limit: 10, total: 30, pages: 3, has_next: false, has_prev: true });
    const p4 = await list('?limit=10&page=4');
    expect(p4.body.data).toEqual([]);
    expect(p4.body.pagination).toEqual({ page: 4, limit: 10, total: 30, pages: 3, has_next: false, has_prev: true });
  });

  it('accepts limit 100', async () => {
    await manyMonitors(2);
    expect((await list('?limit=100')).body.pagination).toMatchObject({ limit: 100, total: 2, pages: 1 });
  });

  it.each([
    ['page', '?page=0'],
    ['page', '?page=-1'],
    ['page', '?page=abc'],
    ['page', '?page=1.5'],
    ['limit', '?limit=0'],
    ['limit', '?limit=101'],
    ['limit', '?limit=ten'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    expectValidation(await list(query), field);
  });
});

describe('GET /monitors items', () => {
  it('lists full monitors, the same as GET /monitors/:id', async () => {
    const created = await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .send({ name: 'Full', url: 'https://full.example/', type: 'http', tags: ['x'] });
    const res = await list();
    expect(res.body.data).toEqual([created.body.data]);
  });

  it('orders by id ascending, whatever the names and creation times', async () => {
    const a = await aMonitor(h.ds, user, { name: 'zzz' });
    const b = await aMonitor(h.ds, user, { name: 'aaa' });
    const c = await aMonitor(h.ds, user, { name: 'mmm' });
    await h.ds.query(`UPDATE monitors SET created_at = now() - make_interval(days => id)`);
    expect(idsOf(await list())).toEqual([a.id, b.id, c.id]);
  });

  it("never shows another user's monitors", async () => {
    const other = await aCaller(h.ds);
    const mine = await manyMonitors(2);
    const theirs = await manyMonitors(3, other.user);
    const res = await list();
    expect(idsOf(res)).toEqual(mine);
    expect(res.body.pagination.total).toBe(2);
    const theirRes = await list('', other.auth);
    expect(idsOf(theirRes)).toEqual(theirs);
    expect(theirRes.body.pagination.total).toBe(3);
    expect(idsOf(await list('?search=m', other.auth))).toEqual(theirs);
  });
});

describe('GET /monitors filters', () => {
  it.each(['pending', 'online', 'offline', 'warning', 'paused'])('filters by status=%s', async (status) => {
    const byStatus: Record<string, number> = {};
    for (const s of ['pending', 'online', 'offline', 'warning', 'paused']) {
      const m = await aMonitor(h.ds, user, { name: s });
      await h.ds.query('UPDATE monitors SET status = $2 WHERE id = $1', [m.id, s]);
      byStatus[s] = m.id;
    }
    const res = await list(`?status=${status}`);
    expect(idsOf(res)).toEqual([byStatus[status]]);
    expect(res.body.data[0].status).toBe(status);
    expect(res.body.pagination.total).toBe(1);
  });

  it('answers 400 for an unknown status', async () => {
    expectValidation(await list('?status=down'), 'status');
  });

  it('ignores status=true and uptime=true', async () => {
    const ids = await manyMonitors(3);
    await h.ds.query(`UPDATE monitors SET status = 'online' WHERE id = $1`, [ids[0]]);
    expect(idsOf(await list('?status=true&uptime=true'))).toEqual(ids);
  });

  it('searches name and URL case-insensitively', async () => {
    const a = await aMonitor(h.ds, user, { name: 'Payments API', url: 'https://pay.example/' });
    const b = await aMonitor(h.ds, user, { name: 'Blog', url: 'https://API.example.org/' });
    await aMonitor(h.ds, user, { name: 'Shop', url: 'https://shop.example/' });
    expect(idsOf(await list('?search=api'))).toEqual([a.id, b.id]);
    expect(idsOf(await list('?search=PAYMENTS'))).toEqual([a.id]);
    expect(idsOf(await list('?search=nothing-matches'))).toEqual([]);
  });

  it('answers 400 for a search over 200 characters', async () => {
    expectValidation(await list(`?search=${'a'.repeat(201)}`), 'search');
  });

  it("treats '%' and '_' in search literally", async () => {
    const pct = await aMonitor(h.ds, user, { name: '100% up', url: 'https://a.example/' });
    await aMonitor(h.ds, user, { name: '100 up', url: 'https://b.example/' });
    const under = await aMonitor(h.ds, user, { name: 'my_api', url: 'https://c.example/' });
    await aMonitor(h.ds, user, { name: 'myXapi', url: 'https://d.example/' });
    expect(idsOf(await list(`?search=${encodeURIComponent('%')}`))).toEqual([pct.id]);
    expect(idsOf(await list(`?search=${encodeURIComponent('0% u')}`))).toEqual([pct.id]);
    expect(idsOf(await list('?search=my_api'))).toEqual([under.id]);
    expect(idsOf(await list(`?search=${encodeURIComponent('\\')}`))).toEqual([]);
  });

  it('filters by type: http keeps http monitors, https keeps those of https URLs', async () => {
    const plain = await aMonitor(h.ds, user, { url: 'http://plain.example/' });
    const secure = await aMonitor(h.ds, user, { url: 'https://secure.example/' });
    const upper = await aMonitor(h.ds, user, { url: 'HTTPS://UPPER.example/' });
    expect(idsOf(await list('?type=http'))).toEqual([plain.id, secure.id, upper.id]);
    expect(idsOf(await list('?type=https'))).toEqual([secure.id, upper.id]);
    expect(idsOf(await list('?type=tcp'))).toEqual([]);
    expectValidation(await list('?type=smtp'), 'type');
  });

  it('filters by tags, keeping monitors that have all of them', async () => {
    const abc = await aMonitor(h.ds, user, { name: 'abc', tags: ['a', 'b', 'c'] });
    const a = await aMonitor(h.ds, user, { name: 'a', tags: ['a'] });
    await aMonitor(h.ds, user, { name: 'b', tags: ['b'] });
    const ab = await aMonitor(h.ds, user, { name: 'ab', tags: ['b', 'a'] });
    await aMonitor(h.ds, user, { name: 'none', tags: [] });
    expect(namesOf(await list('?tags=a,b'))).toEqual(['abc', 'ab']);
    expect(idsOf(await list('?tags=a'))).toEqual([abc.id, a.id, ab.id]);
    expect(idsOf(await list('?tags=a,%20b'))).toEqual([abc.id, ab.id]);
    expect(idsOf(await list('?tags=zzz'))).toEqual([]);
  });

  it('takes a tags filter of 20 full-length tags, and answers 400 for a longer one', async () => {
    const tags = Array.from({ length: 20 }, (_, i) => `${i}`.padStart(50, 't'));
    const tagged = await aMonitor(h.ds, user, { name: 'tagged', tags });
    const longest = tags.join(', ');
    expect(longest).toHaveLength(TAG_FILTER_MAX_LENGTH);
    expect(idsOf(await list(`?tags=${encodeURIComponent(longest)}`))).toEqual([tagged.id]);
    expectValidation(await list(`?tags=${encodeURIComponent(`${longest},`)}`), 'tags');
  });

  it('filters by created_after', async () => {
    const old = await aMonitor(h.ds, user, { name: 'old' });
    const recent = await aMonitor(h.ds, user, { name: 'recent' });
    await h.ds.query(`UPDATE monitors SET created_at = '2024-01-01T00:00:00Z' WHERE id = $1`, [old.id]);
    await h.ds.query(`UPDATE monitors SET created_at = '2024-06-01T12:00:00Z' WHERE id = $1`, [recent.id]);
    expect(idsOf(await list('?created_after=2024-03-01T00:00:00.000Z'))).toEqual([recent.id]);
    expect(idsOf(await list('?created_after=2023-12-31'))).toEqual([old.id, recent.id]);
    expect(idsOf(await list('?created_after=2025-01-01'))).toEqual([]);
  });

  it('filters by updated_since', async () => {
    const stale = await aMonitor(h.ds, user, { name: 'stale' });
    const fresh = await aMonitor(h.ds, user, { name: 'fresh' });
    await h.ds.query(`UPDATE monitors SET updated_at = '2024-01-01T00:00:00Z' WHERE id = $1`, [stale.id]);
    await h.ds.query(`UPDATE monitors SET updated_at = '2024-06-01T00:00:00Z' WHERE id = $1`, [fresh.id]);
    expect(idsOf(await list('?updated_since=2024-06-01T00:00:00Z'))).toEqual([fresh.id]);
    expect(idsOf(await list('?updated_since=2023-01-01'))).toEqual([stale.id, fresh.id]);
  });

  it('reads a UTC offset, encoded or not', async () => {
    const m = await aMonitor(h.ds, user);
    await h.ds.query(`UPDATE monitors SET created_at = '2024-06-01T10:30:00Z' WHERE id = $1`, [m.id]);
    // 12:00+02:00 is 10:00Z, before the monitor; 13:00+02:00 is 11:00Z, after it.
    expect(idsOf(await list(`?created_after=${encodeURIComponent('2024-06-01T12:00:00+02:00')}`))).toEqual([m.id]);
    expect(idsOf(await list('?created_after=2024-06-01T12:00:00+02:00'))).toEqual([m.id]);
    expect(idsOf(await list('?created_after=2024-06-01T13:00:00+02:00'))).toEqual([]);
  });

  it.each([
    ['created_after', 'yesterday'],
    ['created_after', '2024-13-45'],
    ['created_after', '12345'],
    ['updated_since', 'not-a-date'],
    ['updated_since', '1'],
  ])('answers 400 for %s=%s', async (field, value) => {
    expectValidation(await list(`?${field}=${value}`), field);
  });

  it('combines filters', async () => {
    const hit = await aMonitor(h.ds, user, { name: 'Prod API', url: 'https://api.example/', tags: ['prod'] });
    await aMonitor(h.ds, user, { name: 'Prod web', url: 'http://web.example/', tags: ['prod'] });
    await aMonitor(h.ds, user, { name: 'Dev API', url: 'https://dev.example/', tags: ['dev'] });
    await h.ds.query(`UPDATE monitors SET status = 'online'`);
    const res = await list('?status=online&type=https&tags=prod&search=api&limit=5');
    expect(idsOf(res)).toEqual([hit.id]);
    expect(res.body.pagination).toEqual({ page: 1, limit: 5, total: 1, pages: 1, has_next: false, has_prev: false });
  });
});

describe('authentication', () => {
  function expectUnauthorized(res: request.Response): void {
    expect(res.status).toBe(401);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expectMeta(res);
  }

  it('answers 401 without Authorization', async () => {
    expectUnauthorized(await request(h.app).get('/api/v1/monitors'));
    expectUnauthorized(await request(h.app).post('/api/v1/monitors').send({ name: 'x', url: 'https://x.example', type: 'http' }));
    const [row] = await h.ds.query('SELECT count(*)::int AS n FROM monitors');
    expect(row.n).toBe(0);
  });

  it.each(['Token abc', 'Bearer', 'Bearer a b', 'Basic dXNlcjpwYXNz', 'upt_abcdef'])(
    'answers 401 for the malformed header %p',
    async (header) => {
      expectUnauthorized(await request(h.app).get('/api/v1/monitors').set('Authorization', header));
    },
  );

  it('answers 401 for an unknown token', async () => {
    expectUnauthorized(await list('', `Bearer upt_${'x'.repeat(43)}`));
  });

  it('answers 401 on every monitor route without a caller', async () => {
    const { id } = await aMonitor(h.ds, user);
    for (const [method, path] of [
      ['get', `/api/v1/monitors/${id}`],
      ['patch', `/api/v1/monitors/${id}`],
      ['put', `/api/v1/monitors/${id}`],
      ['delete', `/api/v1/monitors/${id}`],
    ] as const) {
      expectUnauthorized(await request(h.app)[method](path));
    }
    const [row] = await h.ds.query('SELECT count(*)::int AS n FROM monitors');
    expect(row.n).toBe(1);
  });
});
