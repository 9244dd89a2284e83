import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { aUser } from '@uptime/testing';
import { createLoginLink } from '../src/auth/login-links.service';
import { useApiHarness } from './support/api-harness';
import { sessionCookieOf } from './support/oauth-sign-in';

const APP_URL = 'http://app.example.test/';
const INVALID = 'http://app.example.test/sign-in?error=invalid_link';

describe('GET /api/v1/auth/link/{token}: one-time sign-in links', () => {
  const h = useApiHarness({ APP_URL, ADMIN_EMAILS: 'boss@example.test' });

  const sessionKeys = () => h.redis.keys(`${h.config.redis.queuePrefix}:sess:*`);
  /** The path of a new link for `userId`, as `pnpm cli login-link` prints it (below PUBLIC_URL). */
  const aLink = async (userId: number): Promise<string> => {
    const { url } = await createLoginLink(h.ds, userId, h.config.http.publicUrl);
    expect(url.startsWith(`${h.config.http.publicUrl}/api/v1/auth/link/`)).toBe(true);
    return new URL(url).pathname;
  };
  const open = (path: string, cookie?: string) => {
    const req = request(h.app).get(path);
    if (cookie) req.set('Cookie', cookie);
    return req;
  };
  const currentUser = (cookie: string) => request(h.app).get('/api/v1/auth/user').set('Cookie', cookie);

  it('signs in: 302 to APP_URL with a new uptime.sid session, as an OAuth sign-in', async () => {
    const user = await aUser(h.ds, { email: 'link@example.test' });
    const signedInFrom = Date.now();
    const res = await open(await aLink(user.id));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(APP_URL);
    expect(res.headers['cache-control']).toBe('no-store');
    const cookie = sessionCookieOf(res);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(await h.redis.exists(`${h.config.redis.queuePrefix}:sess:${cookie!.sid}`)).toBe(1);
    const me = await currentUser(cookie!.pair);
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: user.id, email: 'link@example.test', provider: null });
    // This sign-in's time.
    expect(Date.parse(me.body.data.last_login)).toBeGreaterThanOrEqual(signedInFrom - 1_000);
    expect(Date.parse(me.body.data.last_login)).toBeLessThanOrEqual(Date.now());
    // The session is a real one: it can be refreshed and ended like an OAuth session.
    // From the app's own page, as a browser sends it (the cross-site request defence, docs/security.md).
    expect((await request(h.app).post('/api/v1/auth/refresh').set('Cookie', cookie!.pair).set('Origin', new URL(APP_URL).origin)).status).toBe(200);
  });

  it('applies ADMIN_EMAILS at sign-in, as OAuth does', async () => {
    const user = await aUser(h.ds, { email: 'Boss@example.test', role: 'user' });
    const res = await open(await aLink(user.id));
    expect((await currentUser(sessionCookieOf(res)!.pair)).body.data.role).toBe('admin');
  });

  it('issues a new session id: a session held before is dropped (no fixation)', async () => {
    const first = await aUser(h.ds);
    const second = await aUser(h.ds);
    const before = sessionCookieOf(await open(await aLink(first.id)))!;
    const after = sessionCookieOf(await open(await aLink(second.id), before.pair))!;
    expect(after.sid).not.toBe(before.sid);
    expect(await h.redis.exists(`${h.config.redis.queuePrefix}:sess:${before.sid}`)).toBe(0);
    expect((await currentUser(before.pair)).status).toBe(401);
    expect((await currentUser(after.pair)).body.data.id).toBe(second.id);
  });

  it('works once: a used link redirects to the sign-in page and creates no session', async () => {
    const user = await aUser(h.ds);
    const path = await aLink(user.id);
    expect((await open(path)).headers.location).toBe(APP_URL);
    const keys = await sessionKeys();
    const again = await open(path);
    expect(again.status).toBe(302);
    expect(again.headers.location).toBe(INVALID);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(await sessionKeys()).toEqual(keys);
  });

  it('works once even when opened twice at the same moment', async () => {
    const user = await aUser(h.ds);
    const path = await aLink(user.id);
    const answers = await Promise.all([open(path), open(path), open(path)]);
    expect(answers.map((a) => a.headers.location).sort()).toEqual([APP_URL, INVALID, INVALID]);
    expect(answers.filter((a) => sessionCookieOf(a) !== undefined)).toHaveLength(1);
  });

  it('expires after 15 minutes', async () => {
    const user = await aUser(h.ds);
    const before = Date.now();
    const path = await aLink(user.id);
    const [row] = (await h.ds.query(`SELECT expires_at FROM login_links`)) as { expires_at: Date }[];
    expect(Math.abs(row!.expires_at.getTime() - (before + 15 * 60_000))).toBeLessThan(5000);
    await h.ds.query(`UPDATE login_links SET expires_at = now() - interval '1 second'`);
    const res = await open(path);
    expect(res.headers.location).toBe(INVALID);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionKeys()).toEqual([]);
  });

  it.each([
    ['an unknown', randomBytes(32).toString('base64url')],
    ['a malformed', 'not-a-link'],
    ['a too long', 'A'.repeat(200)],
  ])('refuses %s link: no session, no cookie', async (_case, token) => {
    await aUser(h.ds);
    const res = await open(`/api/v1/auth/link/${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(INVALID);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionKeys()).toEqual([]);
  });

  it('keeps a signed-in session as it was when a link is refused', async () => {
    const user = await aUser(h.ds);
    const signedIn = sessionCookieOf(await open(await aLink(user.id)))!;
    const refused = await open(`/api/v1/auth/link/${randomBytes(32).toString('base64url')}`, signedIn.pair);
    expect(refused.headers.location).toBe(INVALID);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await currentUser(signedIn.pair)).body.data.id).toBe(user.id);
  });

  it('stores only the SHA-256 of the secret', async () => {
    const user = await aUser(h.ds);
    const token = (await aLink(user.id)).split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = (await h.ds.query(`SELECT * FROM login_links`)) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
