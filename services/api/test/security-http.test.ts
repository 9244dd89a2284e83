import request from 'supertest';
import { aCaller, startFakeOAuthProvider, type FakeOAuthProvider } from '@uptime/testing';
import { startApiHarness, type ApiHarness } from './support/api-harness';
import { sessionCookieOf, signIn, startLogin } from './support/oauth-sign-in';

const ALLOWED = 'https://app.example.test';

describe('CORS with credentials for CORS_ORIGINS only', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ CORS_ORIGINS: `${ALLOWED}, https://admin.example.test/` });
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  const preflight = (origin: string) =>
    request(h.app)
      .options('/api/v1/monitors')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type,authorization');

  it("answers an allowed origin's preflight 204 with credentials", async () => {
    const res = await preflight(ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type,Authorization,X-Request-Id');
    expect(res.headers.vary).toMatch(/Origin/);
    // A configured origin with a trailing slash matches the browser's Origin without one.
    expect((await preflight('https://admin.example.test')).headers['access-control-allow-origin']).toBe('https://admin.example.test');
  });

  it("refuses another origin's preflight with a 403 and no CORS headers", async () => {
    for (const origin of ['https://evil.example.test', 'http://app.example.test', 'https://app.example.test.evil.test', 'null']) {
      const res = await preflight(origin);
      expect({ origin, status: res.status, code: res.body.error?.code }).toEqual({ origin, status: 403, code: 'INSUFFICIENT_PERMISSIONS' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('marks actual answers readable only for allowed origins, exposing the rate-limit headers', async () => {
    const { auth } = await aCaller(h.ds);
    const allowed = await request(h.app).get('/api/v1/monitors').set('Origin', ALLOWED).set('Authorization', auth);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect(allowed.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    const other = await request(h.app).get('/api/v1/monitors').set('Origin', 'https://evil.example.test').set('Authorization', auth);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // Non-browser clients send no Origin and are untouched.
    const curl = await request(h.app).get('/api/v1/monitors').set('Authorization', auth);
    expect(curl.status).toBe(200);
    expect(curl.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends the helmet headers', async () => {
    const res = await request(h.app).get('/api/v1/monitors');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('REQUIRE_HTTPS behind a proxy (TRUST_PROXY)', () => {
  let proxied: ApiHarness;
  let direct: ApiHarness;
  beforeAll(async () => {
    proxied = await startApiHarness({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'loopback' });
    direct = await startApiHarness({ REQUIRE_HTTPS: 'true' });
  });
  afterAll(async () => {
    await proxied.close();
    await direct.close();
  });

  it('redirects plain HTTP with 308 to the same URL over https, methods included', async () => {
    const get = await request(proxied.app).get('/api/v1/monitors?page=2&limit=5').set('Host', 'uptime.example.test');
    expect(get.status).toBe(308);
    expect(get.headers.location).toBe('https://uptime.example.test/api/v1/monitors?page=2&limit=5');
    const post = await request(proxied.app).post('/api/v1/monitors').set('Host', 'uptime.example.test').send({ name: 'x' });
    expect(post.status).toBe(308);
    const viaProxyOverHttp = await request(proxied.app)
      .get('/api/v1/monitors')
      .set('X-Forwarded-Proto', 'http')
      .set('X-Forwarded-Host', 'public.example.test');
    expect(viaProxyOverHttp.headers.location).toBe('https://public.example.test/api/v1/monitors');
  });

  it('serves a request the trusted proxy received over https', async () => {
    const { auth } = await aCaller(proxied.ds);
    const res = await request(proxied.app).get('/api/v1/monitors').set('X-Forwarded-Proto', 'https').set('Authorization', auth);
    expect(res.status).toBe(200);
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    const res = await request(direct.app).get('/api/v1/monitors').set('X-Forwarded-Proto', 'https').set('Host', 'uptime.example.test');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('https://uptime.example.test/api/v1/monitors');
  });

  it('leaves the health probes on plain HTTP', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await request(direct.app).get(path);
      expect({ path, status: res.status }).not.toEqual({ path, status: 308 });
    }
  });

  it('does not redirect when REQUIRE_HTTPS is off (the test default)', async () => {
    const plain = await startApiHarness();
    try {
      expect((await request(plain.app).get('/api/v1/monitors')).status).toBe(401);
    } finally {
      await plain.close();
    }
  });
});

describe('the session cookie on an https PUBLIC_URL', () => {
  let h: ApiHarness;
  let github: FakeOAuthProvider;
  const https = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'uptime.example.test' };

  beforeAll(async () => {
    github = await startFakeOAuthProvider('github');
    h = await startApiHarness({ ...github.env, PUBLIC_URL: 'https://uptime.example.test', TRUST_PROXY: 'loopback', REQUIRE_HTTPS: 'true' });
  });
  afterAll(async () => {
    await h.close();
    await github.close();
  });
  beforeEach(() => h.reset());

  it('is Secure, HttpOnly and SameSite=Lax, and the callback is under PUBLIC_URL', async () => {
    github.signInAs({ id: '31337', email: 'secure@example.test', emailVerified: true });
    const login = await startLogin(h.app, 'github', undefined, https);
    expect(login.authorizeUrl.searchParams.get('redirect_uri')).toBe('https://uptime.example.test/api/v1/auth/github/callback');
    expect(sessionCookieOf(login.res)?.attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    const { setCookie, cookie } = await signIn(h.app, 'github', undefined, https);
    expect(setCookie.attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    const me = await request(h.app).get('/api/v1/auth/user').set(https).set('Cookie', cookie);
    expect(me.body.data.email).toBe('secure@example.test');
  });
});
