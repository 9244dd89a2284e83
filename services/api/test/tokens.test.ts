import request from 'supertest';
import type { User } from '@uptime/db';
import { aCaller, aToken } from '@uptime/testing';
import { expectMeta, useApiHarness } from './support/api-harness';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_MS = 86_400_000;

const h = useApiHarness();
let user: User;
let auth: string;
/** The user's personal organization, where their tokens act unless told otherwise. */
let personal: number;

beforeEach(async () => {
  ({ user, auth } = await aCaller(h.ds));
  [{ id: personal }] = await h.ds.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [user.id]);
});

const api = (method: 'get' | 'post' | 'delete', path: string, as = auth) =>
  request(h.app)[method](`/api/v1/auth/tokens${path}`).set('Authorization', as);

async function createToken(body: object = { name: 'ci' }) {
  const res = await api('post', '').send(body);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; name: string; token: string; created_at: string; expires_at: string | null };
}

function expectError(res: request.Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
  expect(res.body.error.code).toBe(code);
  expectMeta(res);
}

describe('POST /auth/tokens', () => {
  it('answers 201 with the plaintext token once', async () => {
    const res = await api('post', '').send({ name: 'deploy bot' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    expectMeta(res);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'deploy bot',
      organization_id: personal,
      scope: 'write',
      token: expect.stringMatching(/^upt_[A-Za-z0-9_-]{40,}$/),
      created_at: expect.stringMatching(ISO_MS),
      expires_at: null,
    });
  });

  it('sets expires_at from expires_in_days', async () => {
    const before = Date.now();
    const token = await createToken({ name: 'short', expires_in_days: 7 });
    expect(token.expires_at).toMatch(ISO_MS);
    const expires = Date.parse(token.expires_at as string);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS + 1000);
  });

  it('stores only the SHA-256 of the token', async () => {
    const token = await createToken();
    const rows: { token_hash: string; user_id: number }[] = await h.ds.query('SELECT token_hash, user_id FROM api_tokens WHERE id = $1', [
      token.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toBe(token.token);
    expect(rows[0]?.user_id).toBe(user.id);
    const [leak] = await h.ds.query(`SELECT count(*)::int AS n FROM api_tokens WHERE row_to_json(api_tokens)::text LIKE '%' || $1 || '%'`, [
      token.token.slice(4),
    ]);
    expect(leak.n).toBe(0);
  });

  it('issues a token that authenticates as its owner', async () => {
    const token = await createToken();
    const res = await request(h.app).get('/api/v1/auth/tokens').set('Authorization', `Bearer ${token.token}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: number }) => t.id)).toContain(token.id);
  });

  it('issues a different token each time', async () => {
    const a = await createToken();
    const b = await createToken();
    expect(a.token).not.toBe(b.token);
  });

  it.each([
    ['name', {}],
    ['name', { name: '' }],
    ['name', { name: 'n'.repeat(101) }],
    ['name', { name: 42 }],
    ['name', { name: null }],
    ['expires_in_days', { name: 'x', expires_in_days: 0 }],
    ['expires_in_days', { name: 'x', expires_in_days: -1 }],
    ['expires_in_days', { name: 'x', expires_in_days: 'x' }],
    ['expires_in_days', { name: 'x', expires_in_days: 1.5 }],
    ['expires_in_days', { name: 'x', expires_in_days: 3651 }],
    ['user_id', { name: 'x', user_id: 99 }],
    ['token', { name: 'x', token: 'upt_chosen_by_me_0000000000000000000000000000' }],
  ])('answers 400 naming %s for %p', async (field, body) => {
    const res = await api('post', '').send(body);
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
    const [row] = await h.ds.query('SELECT count(*)::int AS n FROM api_tokens');
    expect(row.n).toBe(1);
  });

  it('accepts a 100-character name', async () => {
    expect((await createToken({ name: 'n'.repeat(100) })).name).toHaveLength(100);
  });
});

describe('GET /auth/tokens', () => {
  it('lists the caller’s tokens without the plaintext, paginated', async () => {
    const a = await createToken({ name: 'a' });
    const b = await createToken({ name: 'b', expires_in_days: 30 });
    const res = await api('get', '');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta', 'pagination']);
    expectMeta(res);
    // The caller's own token (from aCaller) comes first.
    expect(res.body.data).toHaveLength(3);
    expect(res.body.data.slice(1)).toEqual([
      { id: a.id, name: 'a', organization_id: personal, scope: 'write', created_at: a.created_at, expires_at: null, last_used_at: null },
      { id: b.id, name: 'b', organization_id: personal, scope: 'write', created_at: b.created_at, expires_at: b.expires_at, last_used_at: null },
    ]);
    for (const t of res.body.data) {
      expect(t).not.toHaveProperty('token');
      expect(t).not.toHaveProperty('token_hash');
    }
    expect(res.body.data[0].last_used_at).toMatch(ISO_MS);
    expect(res.body.pagination).toEqual({ page: 1, limit: 50, total: 3, pages: 1, has_next: false, has_prev: false });
  });

  it('pages', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await createToken({ name });
    const p2 = await api('get', '?limit=2&page=2');
    expect(p2.body.data.map((t: { name: string }) => t.name)).toEqual(['b', 'c']);
    expect(p2.body.pagination).toEqual({ page: 2, limit: 2, total: 5, pages: 3, has_next: true, has_prev: true });
    expectError(await api('get', '?limit=101'), 400, 'VALIDATION_ERROR');
    expectError(await api('get', '?page=0'), 400, 'VALIDATION_ERROR');
  });

  it("never shows another user's tokens", async () => {
    const other = await aCaller(h.ds);
    await createToken({ name: 'mine' });
    const res = await api('get', '', other.auth);
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(['test']);
    expect(res.body.pagination.total).toBe(1);
  });
});

describe('DELETE /auth/tokens/:id', () => {
  it('revokes: the token stops authenticating', async () => {
    const token = await createToken();
    const bearer = `Bearer ${token.token}`;
    expect((await api('get', '', bearer)).status).toBe(200);
    const res = await api('delete', `/${token.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'meta']);
    expect(typeof res.body.message).toBe('string');
    expectMeta(res);
    expectError(await api('get', '', bearer), 401, 'UNAUTHORIZED');
    expect((await api('get', '')).body.data.map((t: { id: number }) => t.id)).not.toContain(token.id);
  });

  it('revokes a token used just before, from the next request on', async () => {
    const token = await createToken();
    const bearer = `Bearer ${token.token}`;
    for (let i = 0; i < 3; i++) expect((await api('get', '', bearer)).status).toBe(200);
    expect((await api('delete', `/${token.id}`)).status).toBe(200);
    expectError(await api('get', '', bearer), 401, 'UNAUTHORIZED');
    expectError(await request(h.app).get('/api/v1/monitors').set('Authorization', bearer), 401, 'UNAUTHORIZED');
  });

  it('revokes the token making the request', async () => {
    const token = await createToken();
    const bearer = `Bearer ${token.token}`;
    expect((await api('delete', `/${token.id}`, bearer)).status).toBe(200);
    expectError(await api('get', '', bearer), 401, 'UNAUTHORIZED');
  });

  it("answers 404 TOKEN_NOT_FOUND for another user's token and keeps it", async () => {
    const other = await aCaller(h.ds);
    const theirs = await createToken({ name: 'theirs' });
    // `theirs` belongs to `user`; `other` tries to revoke it.
    expectError(await api('delete', `/${theirs.id}`, other.auth), 404, 'TOKEN_NOT_FOUND');
    expect((await api('get', '', `Bearer ${theirs.token}`)).status).toBe(200);
  });

  it('answers 404 TOKEN_NOT_FOUND for a missing, revoked or malformed id', async () => {
    const token = await createToken();
    await api('delete', `/${token.id}`);
    expectError(await api('delete', `/${token.id}`), 404, 'TOKEN_NOT_FOUND');
    expectError(await api('delete', '/987654'), 404, 'TOKEN_NOT_FOUND');
    expectError(await api('delete', '/abc'), 404, 'TOKEN_NOT_FOUND');
  });
});

describe('bearer authentication', () => {
  it('answers 401 UNAUTHORIZED for an expired token', async () => {
    const token = await createToken({ name: 'old', expires_in_days: 1 });
    await h.ds.query(`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [token.id]);
    expectError(await api('get', '', `Bearer ${token.token}`), 401, 'UNAUTHORIZED');
    expectError(await request(h.app).get('/api/v1/monitors').set('Authorization', `Bearer ${token.token}`), 401, 'UNAUTHORIZED');
  });

  it('answers 401 once a token used moments ago expires', async () => {
    const token = await createToken({ name: 'brief', expires_in_days: 1 });
    expect((await api('get', '', `Bearer ${token.token}`)).status).toBe(200);
    // What a request reads of the token may be a few seconds old, but never its expiry: the
    // expiry it read is compared with the clock on every request.
    const realNow = Date.now;
    const later = Date.parse(token.expires_at as string) + 1;
    jest.spyOn(Date, 'now').mockImplementation(() => Math.max(realNow(), later));
    try {
      expectError(await api('get', '', `Bearer ${token.token}`), 401, 'UNAUTHORIZED');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('accepts a token that has not expired yet', async () => {
    const token = await createToken({ name: 'soon', expires_in_days: 1 });
    await h.ds.query(`UPDATE api_tokens SET expires_at = now() + interval '1 minute' WHERE id = $1`, [token.id]);
    expect((await api('get', '', `Bearer ${token.token}`)).status).toBe(200);
  });

  it('answers 401 for an unknown, malformed or missing token', async () => {
    expectError(await request(h.app).get('/api/v1/auth/tokens'), 401, 'UNAUTHORIZED');
    expectError(await api('get', '', `Bearer upt_${'A'.repeat(43)}`), 401, 'UNAUTHORIZED');
    expectError(await api('get', '', 'Bearer'), 401, 'UNAUTHORIZED');
    expectError(await api('get', '', 'Basic dXNlcjpwYXNz'), 401, 'UNAUTHORIZED');
  });

  it('answers 401 after the owner is deleted', async () => {
    const other = await aCaller(h.ds);
    await h.ds.query('DELETE FROM users WHERE id = $1', [other.user.id]);
    expectError(await api('get', '', other.auth), 401, 'UNAUTHORIZED');
  });

  it('records when a token was last used', async () => {
    const plain = await aToken(h.ds, user, { name: 'fresh' });
    const [before] = await h.ds.query(`SELECT last_used_at FROM api_tokens WHERE name = 'fresh'`);
    expect(before.last_used_at).toBeNull();
    await api('get', '', `Bearer ${plain}`);
    const [after] = await h.ds.query(`SELECT last_used_at FROM api_tokens WHERE name = 'fresh'`);
    expect(after.last_used_at).toBeInstanceOf(Date);
  });
});
