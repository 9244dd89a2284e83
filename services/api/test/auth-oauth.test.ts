import request from 'supertest';
import { User, UserIdentity } from '@uptime/db';
import { aCaller, startFakeOAuthProvider, type FakeOAuthFlavor, type FakeOAuthProvider } from '@uptime/testing';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';
import { consent, sessionCookieOf, signIn, startLogin } from './support/oauth-sign-in';

const APP_URL = 'http://app.example.test/dashboard';
/** What a browser sends with the web application's own requests (docs/security.md, CSRF). */
const FROM_APP = new URL(APP_URL).origin;
const TTL_SECONDS = 3600;

describe('OAuth sign-in through the real passport strategies', () => {
  let h: ApiHarness;
  const fakes = {} as Record<FakeOAuthFlavor, FakeOAuthProvider>;

  beforeAll(async () => {
    fakes.github = await startFakeOAuthProvider('github');
    fakes.google = await startFakeOAuthProvider('google');
    h = await startApiHarness({ ...fakes.github.env, ...fakes.google.env, APP_URL, SESSION_TTL_SECONDS: String(TTL_SECONDS) });
  });
  afterAll(async () => {
    await h.close();
    await Promise.all([fakes.github.close(), fakes.google.close()]);
  });
  beforeEach(async () => {
    await h.reset();
    for (const fake of Object.values(fakes)) fake.requests.length = 0;
  });

  const sessionKeys = () => h.redis.keys(`${h.config.redis.queuePrefix}:sess:*`);
  const tokenRequests = (fake: FakeOAuthProvider) => fake.requests.filter((r) => r.method === 'POST');

  describe.each(['github', 'google'] as const)('%s', (provider) => {
    let seq = 0;
    const anAccount = (email = `person${++seq}@example.test`) => ({
      id: String(4000 + ++seq),
      email,
      emailVerified: true,
      name: `Person ${seq}`,
      avatarUrl: `https://avatars.example.test/${seq}.png`,
    });

    it('redirects the login to the provider with a state (and a PKCE S256 challenge for Google)', async () => {
      const { res, authorizeUrl, preLoginSid } = await startLogin(h.app, provider);
      expect(authorizeUrl.origin).toBe(fakes[provider].url);
      const q = Object.fromEntries(authorizeUrl.searchParams);
      expect(q).toMatchObject({
        client_id: fakes[provider].clientId,
        response_type: 'code',
        redirect_uri: `http://localhost:3000/api/v1/auth/${provider}/callback`,
        scope: provider === 'github' ? 'user:email' : 'openid email profile',
      });
      expect(q.state).toMatch(/^[\w-]{20,}$/);
      if (provider === 'google') {
        expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
        expect(q.code_challenge_method).toBe('S256');
      } else {
        expect(q.code_challenge).toBeUndefined();
      }
      // The state lives in a (not yet signed-in) session.
      expect(preLoginSid).toMatch(/.{20,}/);
      expect(sessionCookieOf(res)?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      // That session lives only as long as a sign-in may take (10 minutes), in the cookie and in Redis.
      expect(Math.abs(sessionCookieOf(res)!.expires!.getTime() - (Date.now() + 600_000))).toBeLessThan(3000);
      const pttl = await h.redis.pttl(`${h.config.redis.queuePrefix}:sess:${preLoginSid}`);
      expect(pttl).toBeGreaterThan(590_000);
      expect(pttl).toBeLessThanOrEqual(600_000);
      // A second login gets a fresh state.
      const again = await startLogin(h.app, provider);
      expect(again.authorizeUrl.searchParams.get('state')).not.toBe(q.state);
    });

    it('signs in: 302 to APP_URL with a new HttpOnly, SameSite=Lax session cookie (not Secure on http)', async () => {
      const account = anAccount();
      fakes[provider].signInAs(account);
      const before = Date.now();
      const { callback, setCookie, login, cookie } = await signIn(h.app, provider);
      expect(callback.status).toBe(302);
      expect(callback.headers.location).toBe(APP_URL);
      expect(setCookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
      expect(setCookie.attributes).not.toContain('secure');
      expect(setCookie.expires!.getTime()).toBeGreaterThanOrEqual(before + TTL_SECONDS * 1000 - 2000);
      expect(setCookie.expires!.getTime()).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000 + 1000);
      // Session fixation: the id that carried the state is not the signed-in one, and is gone.
      expect(login.preLoginSid).toMatch(/.{20,}/);
      expect(setCookie.sid).not.toBe(login.preLoginSid);
      expect(await sessionKeys()).toEqual([`${h.config.redis.queuePrefix}:sess:${setCookie.sid}`]);
      const old = await request(h.app).get('/api/v1/auth/user').set('Cookie', login.cookie!);
      expect(old.status).toBe(401);

      const me = await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie);
      expect(me.status).toBe(200);
      expectMeta(me);
      expect(me.body.data).toEqual({
        id: expect.any(Number),
        email: account.email,
        name: account.name,
        provider,
        providers: [provider],
        avatar_url: account.avatarUrl,
        role: 'user',
        created_at: expect.stringMatching(/Z$/),
        last_login: expect.stringMatching(/Z$/),
        // Without X-Organization-Id a session acts in the user's personal organization.
        organization: { id: expect.any(Number), name: account.name, role: 'owner' },
      });
      expect(new Date(me.body.data.last_login).getTime()).toBeGreaterThanOrEqual(before - 1000);
      const identity = await h.ds.getRepository(UserIdentity).findOneByOrFail({ provider, providerUserId: account.id });
      expect(identity).toMatchObject({ userId: me.body.data.id, email: account.email, emailVerified: true });
    });

    it('exchanges the code with the client secret, redirect_uri and (Google) the PKCE verifier', async () => {
      fakes[provider].signInAs(anAccount());
      await signIn(h.app, provider);
      const [exchange] = tokenRequests(fakes[provider]);
      expect(exchange!.form).toMatchObject({
        grant_type: 'authorization_code',
        client_id: fakes[provider].clientId,
        client_secret: fakes[provider].clientSecret,
        redirect_uri: `http://localhost:3000/api/v1/auth/${provider}/callback`,
      });
      if (provider === 'google') expect(exchange!.form.code_verifier).toMatch(/^[\w-]{43}$/);
      else expect(exchange!.form.code_verifier).toBeUndefined();
    });

    it('refuses a callback with a wrong state: 401, no code exchange, no session', async () => {
      fakes[provider].signInAs(anAccount());
      const login = await startLogin(h.app, provider);
      const callbackPath = await consent(login.authorizeUrl);
      const forged = callbackPath.replace(/state=[^&]+/, 'state=forged-state-value');
      const res = await request(h.app).get(forged).set('Cookie', login.cookie!);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
      expectMeta(res);
      expect(tokenRequests(fakes[provider])).toHaveLength(0);
      expect(sessionCookieOf(res)).toBeUndefined();
      // The session that carried the state is dropped with it.
      expect(await sessionKeys()).toEqual([]);
      expect((await request(h.app).get('/api/v1/auth/user').set('Cookie', login.cookie!)).status).toBe(401);
      // The state is spent: replaying the genuine callback with that session fails too.
      const replay = await request(h.app).get(callbackPath).set('Cookie', login.cookie!);
      expect(replay.status).toBe(401);
      expect(await h.ds.getRepository(User).count()).toBe(0);
    });

    it('refuses a genuine callback arriving without the session that started the login', async () => {
      fakes[provider].signInAs(anAccount());
      const login = await startLogin(h.app, provider);
      const callbackPath = await consent(login.authorizeUrl);
      const res = await request(h.app).get(callbackPath);
      expect(res.status).toBe(401);
      expect(sessionCookieOf(res)).toBeUndefined();
      expect(tokenRequests(fakes[provider])).toHaveLength(0);
    });

    it('answers 400 for a callback without state or code, storing nothing', async () => {
      const login = await startLogin(h.app, provider);
      const keysBefore = await sessionKeys();
      const noState = await request(h.app).get(`/api/v1/auth/${provider}/callback?code=abc`).set('Cookie', login.cookie!);
      expect(noState.status).toBe(400);
      expect(noState.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { state: ['state is required'] } });
      const state = login.authorizeUrl.searchParams.get('state')!;
      const noCode = await request(h.app).get(`/api/v1/auth/${provider}/callback?state=${state}`).set('Cookie', login.cookie!);
      expect(noCode.status).toBe(400);
      expect(noCode.body.error.details).toEqual({ code: ['code is required'] });
      const neither = await request(h.app).get(`/api/v1/auth/${provider}/callback`);
      expect(Object.keys(neither.body.error.details).sort()).toEqual(['code', 'state']);
      expect(await sessionKeys()).toEqual(keysBefore);
      expect(tokenRequests(fakes[provider])).toHaveLength(0);
      expect((await request(h.app).get('/api/v1/auth/user').set('Cookie', login.cookie!)).status).toBe(401);
    });

    it('answers 401 when the provider refuses the code or the user denies access', async () => {
      const login = await startLogin(h.app, provider);
      const state = login.authorizeUrl.searchParams.get('state')!;
      const badCode = await request(h.app)
        .get(`/api/v1/auth/${provider}/callback?code=not-issued&state=${state}`)
        .set('Cookie', login.cookie!);
      expect(badCode.status).toBe(401);
      expect(badCode.body.error.code).toBe('UNAUTHORIZED');
      expect(tokenRequests(fakes[provider])).toHaveLength(1);
      const denied = await request(h.app).get(`/api/v1/auth/${provider}/callback?error=access_denied&state=${state}`);
      expect(denied.status).toBe(401);
      expect(denied.body.error.message).toContain('access_denied');
      expect((await request(h.app).get('/api/v1/auth/user').set('Cookie', login.cookie!)).status).toBe(401);
    });

    it('refresh moves expires_at and the session expiry in Redis; a later refresh moves it further', async () => {
      fakes[provider].signInAs(anAccount());
      const { cookie, sid } = await signIn(h.app, provider);
      const key = `${h.config.redis.queuePrefix}:sess:${sid}`;
      // Age the stored session so the extension is visible.
      await h.redis.pexpire(key, 60_000);
      const first = await request(h.app).post('/api/v1/auth/refresh').set('Cookie', cookie).set('Origin', FROM_APP);
      expect(first.status).toBe(200);
      expectMeta(first);
      expect(first.body).toEqual({
        message: expect.any(String),
        expires_at: expect.stringMatching(/^\d{4}-.+\.\d{3}Z$/),
        meta: expect.any(Object),
      });
      const expiresAt = new Date(first.body.expires_at).getTime();
      expect(Math.abs(expiresAt - (Date.now() + TTL_SECONDS * 1000))).toBeLessThan(5000);
      expect(await h.redis.pttl(key)).toBeGreaterThan((TTL_SECONDS - 10) * 1000);
      // The browser gets the cookie again with the new expiry.
      const resent = sessionCookieOf(first);
      expect(resent?.sid).toBe(sid);
      expect(Math.abs(resent!.expires!.getTime() - expiresAt)).toBeLessThan(1500);

      await new Promise((r) => setTimeout(r, 20));
      const second = await request(h.app).post('/api/v1/auth/refresh').set('Cookie', cookie).set('Origin', FROM_APP);
      expect(new Date(second.body.expires_at).getTime()).toBeGreaterThan(expiresAt);
    });

    it('logout destroys the session server-side: the old cookie gets 401 afterwards', async () => {
      fakes[provider].signInAs(anAccount());
      const { cookie, sid } = await signIn(h.app, provider);
      expect((await request(h.app).get('/api/v1/monitors').set('Cookie', cookie)).status).toBe(200);
      const out = await request(h.app).post('/api/v1/auth/logout').set('Cookie', cookie).set('Origin', FROM_APP);
      expect(out.status).toBe(200);
      expect(out.body.message).toEqual(expect.any(String));
      expectMeta(out);
      const cleared = sessionCookieOf(out);
      expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
      expect(await h.redis.exists(`${h.config.redis.queuePrefix}:sess:${sid}`)).toBe(0);
      for (const [method, path] of [
        ['get', '/api/v1/auth/user'],
        ['get', '/api/v1/monitors'],
        ['post', '/api/v1/auth/refresh'],
        ['post', '/api/v1/auth/logout'],
      ] as const) {
        const res = await request(h.app)[method](path).set('Cookie', cookie);
        expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 401, code: 'UNAUTHORIZED' });
      }
    });
  });

  it('answers 404 NOT_FOUND for an unknown provider, on login and callback', async () => {
    for (const path of ['/api/v1/auth/twitter/login', '/api/v1/auth/twitter/callback?code=a&state=b', '/api/v1/auth/GitHub/login']) {
      const res = await request(h.app).get(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('answers 404 for a provider without credentials', async () => {
    const githubOnly = await startApiHarness({ ...fakes.github.env, APP_URL });
    try {
      const google = await request(githubOnly.app).get('/api/v1/auth/google/login');
      expect(google.status).toBe(404);
      expect(google.body.error.code).toBe('NOT_FOUND');
      expect((await request(githubOnly.app).get('/api/v1/auth/google/callback?code=a&state=b')).status).toBe(404);
      expect((await request(githubOnly.app).get('/api/v1/auth/github/login')).status).toBe(302);
    } finally {
      await githubOnly.close();
    }
  });

  it('refuses a login URL carrying a code (passport would otherwise treat it as a callback)', async () => {
    const res = await request(h.app).get('/api/v1/auth/github/login?code=abc&state=x');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(tokenRequests(fakes.github)).toHaveLength(0);
  });

  it('uses the session and bearer tokens as two ways of being the same caller', async () => {
    const { user, auth } = await aCaller(h.ds, { email: 'both@example.test' });
    fakes.github.signInAs({ id: '777', email: 'both@example.test', emailVerified: true });
    const { cookie } = await signIn(h.app, 'github');
    const viaSession = await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie);
    const viaToken = await request(h.app).get('/api/v1/auth/user').set('Authorization', auth);
    expect(viaSession.body.data).toMatchObject({ id: user.id, provider: 'github', providers: ['github'] });
    // A bearer token has no provider; the linked ones are still listed.
    expect(viaToken.body.data).toMatchObject({ id: user.id, provider: null, providers: ['github'] });
    // Token management works with a session caller too.
    const created = await request(h.app).post('/api/v1/auth/tokens').set('Cookie', cookie).set('Origin', FROM_APP).send({ name: 'from the browser' });
    expect(created.status).toBe(201);
    const listed = await request(h.app).get('/api/v1/auth/tokens').set('Authorization', `Bearer ${created.body.data.token}`);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['test', 'from the browser']);
    // Refresh and logout act on a session; a token alone has none.
    const refresh = await request(h.app).post('/api/v1/auth/refresh').set('Authorization', auth);
    expect(refresh.status).toBe(401);
    expect((await request(h.app).post('/api/v1/auth/logout').set('Authorization', auth)).status).toBe(401);
  });

  it('does not fall back to the session when a bearer token is invalid', async () => {
    fakes.github.signInAs({ id: '778', email: 'fallback@example.test', emailVerified: true });
    const { cookie } = await signIn(h.app, 'github');
    const res = await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie).set('Authorization', 'Bearer upt_notavalidtoken');
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/token/i);
  });

  it('outside /auth too: a bearer token decides over a session cookie, an empty header does not', async () => {
    fakes.github.signInAs({ id: '779', email: 'cookie@example.test', emailVerified: true });
    const { cookie } = await signIn(h.app, 'github');
    const other = await aCaller(h.ds, { email: 'token@example.test' });
    const list = (authorization?: string) => {
      const req = request(h.app).get('/api/v1/monitors').set('Cookie', cookie);
      return authorization === undefined ? req : req.set('Authorization', authorization);
    };
    expect((await list()).status).toBe(200);
    expect((await list('')).status).toBe(200);
    expect((await list('Bearer upt_notavalidtoken')).status).toBe(401);
    await request(h.app)
      .post('/api/v1/monitors')
      .set('Authorization', other.auth)
      .send({ name: 'Theirs', url: 'https://example.com/', type: 'http' });
    expect((await list(other.auth)).body.data.map((m: { name: string }) => m.name)).toEqual(['Theirs']);
    expect((await list()).body.data).toEqual([]);
  });

  it('forgets a session whose user was deleted', async () => {
    fakes.google.signInAs({ id: 'g-del', email: 'gone@example.test', emailVerified: true });
    const { cookie, sid } = await signIn(h.app, 'google');
    await h.ds.getRepository(User).delete({ email: 'gone@example.test' });
    expect((await request(h.app).get('/api/v1/auth/user').set('Cookie', cookie)).status).toBe(401);
    expect(await h.redis.exists(`${h.config.redis.queuePrefix}:sess:${sid}`)).toBe(0);
  });
});
