import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request, { type Response } from 'supertest';
import { startApiHarness, type ApiHarness } from './support/api-harness';

/** A built app in miniature: index.html, one hashed asset and one unhashed file. */
const FIXTURE = path.join(__dirname, 'fixtures/web-dist');
const ASSET = '/assets/index-3f9a1c2b.js';

const expectErrorEnvelope = (res: Response, status: number, code: string): void => {
  expect({ status: res.status, type: res.type, code: res.body.error?.code }).toEqual({ status, type: 'application/json', code });
};

const cspOf = (res: Response): Record<string, string> =>
  Object.fromEntries(
    String(res.headers['content-security-policy'])
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
  );

describe('the api serves the built web app (WEB_DIST_DIR)', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ WEB_DIST_DIR: FIXTURE });
  });
  afterAll(() => h.close());

  it.each(['/', '/monitors/42', '/settings', '/sign-in', '/notifications/active', '/monitors/42/edit'])(
    'answers %s with index.html, not cached',
    async (route) => {
      const res = await request(h.app).get(route).set('Accept', 'text/html');
      expect(res.status).toBe(200);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('data-fixture="web-app"');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-request-id']).toMatch(/.+/);
    },
  );

  it('serves the invitation page (docs/organizations.md) without letting its link leak through Referer', async () => {
    const res = await request(h.app).get('/invitations/pZ3x9Qm1vR7tK2wE5yN8bC4dF6gH0jL3aS5uV7iO9qW').set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-fixture="web-app"');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers a client-side route with a query string and a HEAD the same way', async () => {
    const withQuery = await request(h.app).get('/sign-in?error=invalid_link');
    expect(withQuery.status).toBe(200);
    expect(withQuery.text).toContain('data-fixture="web-app"');
    const head = await request(h.app).head('/monitors/7');
    expect(head.status).toBe(200);
    expect(head.type).toBe('text/html');
  });

  it('serves hashed assets cached for a year (immutable), other files revalidated', async () => {
    const asset = await request(h.app).get(ASSET);
    expect(asset.status).toBe(200);
    expect(asset.type).toBe('text/javascript');
    expect(asset.text).toContain('fixture app');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const robots = await request(h.app).get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
    // index.html asked for by name is the same page, with the same caching.
    const index = await request(h.app).get('/index.html');
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset or file 404 in the error envelope, never with index.html', async () => {
    expectErrorEnvelope(await request(h.app).get('/assets/index-00000000.js'), 404, 'NOT_FOUND');
    expectErrorEnvelope(await request(h.app).get('/assets/'), 404, 'NOT_FOUND');
    expectErrorEnvelope(await request(h.app).get('/favicon.ico'), 404, 'NOT_FOUND');
    expectErrorEnvelope(await request(h.app).get('/../package.json'), 404, 'NOT_FOUND');
  });

  it.each(['/api', '/api/nope', '/healthz/x', '/readyz/x', '/metrics/x', '/status', '/badge/1.svg', '/badge/1'])(
    'leaves %s to the server: its own 404 envelope',
    async (route) => {
      expectErrorEnvelope(await request(h.app).get(route).set('Accept', 'text/html'), 404, 'NOT_FOUND');
    },
  );

  it.each([
    ['/status/acme', 'text/html'],
    ['/badge/0123456789abcdef0123456789abcdef/status.svg', 'image/svg+xml'],
  ])('leaves %s to the public pages, which answer their own 404 (%s), never the app', async (route, type) => {
    const res = await request(h.app).get(route).set('Accept', 'text/html');
    expect({ status: res.status, type: res.type }).toEqual({ status: 404, type });
    expect(String(res.text ?? res.body)).not.toContain('data-fixture="web-app"');
  });

  it('leaves unknown /api/v1 paths to the API, whatever their case (401 without a caller, as before)', async () => {
    for (const route of ['/api/v1/nope', '/API/V1/NOPE', '/Api/v1/monitors']) {
      expectErrorEnvelope(await request(h.app).get(route).set('Accept', 'text/html'), 401, 'UNAUTHORIZED');
    }
  });

  it('keeps the API, the operations endpoints and the explorer answering as before', async () => {
    expect((await request(h.app).get('/healthz')).body.status).toBe('ok');
    expect((await request(h.app).get('/api/v1/monitors')).status).toBe(401);
    expect((await request(h.app).get('/api/v1/openapi.json')).body.openapi).toMatch(/^3\.1/);
    expect((await request(h.app).get('/api/docs/')).text).toContain('swagger');
  });

  it('does not answer other methods with the app', async () => {
    expectErrorEnvelope(await request(h.app).post('/settings').send({}), 404, 'NOT_FOUND');
    expectErrorEnvelope(await request(h.app).delete('/monitors/42'), 404, 'NOT_FOUND');
  });

  it("sends a strict CSP on the app's pages: own scripts, styles, images and fetches, nothing inline", async () => {
    const res = await request(h.app).get('/monitors/42');
    const csp = cspOf(res);
    expect(csp).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self'",
      'script-src-attr': "'none'",
      'style-src': "'self'",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'object-src': "'none'",
      'frame-ancestors': "'self'",
    });
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['content-security-policy']).not.toContain('unsafe-eval');
    // REQUIRE_HTTPS is off here, so a plain-HTTP install still loads its own scripts.
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(cspOf(await request(h.app).get(ASSET))['script-src']).toBe("'self'");
  });
});

describe('without a built app', () => {
  let h: ApiHarness;
  const empty = mkdtempSync(path.join(os.tmpdir(), 'uptime-web-empty-'));
  beforeAll(async () => {
    h = await startApiHarness({ WEB_DIST_DIR: empty });
  });
  afterAll(async () => {
    await h.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('answers / and client-side routes 404 in the error envelope, as before the app existed', async () => {
    expectErrorEnvelope(await request(h.app).get('/'), 404, 'NOT_FOUND');
    expectErrorEnvelope(await request(h.app).get('/monitors/42'), 404, 'NOT_FOUND');
    expect((await request(h.app).get('/healthz')).status).toBe(200);
  });

  it('also when WEB_DIST_DIR names no folder at all', async () => {
    const missing = await startApiHarness({ WEB_DIST_DIR: path.join(empty, 'not-built') });
    try {
      expectErrorEnvelope(await request(missing.app).get('/settings'), 404, 'NOT_FOUND');
    } finally {
      await missing.close();
    }
  });
});

describe('behind REQUIRE_HTTPS', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ WEB_DIST_DIR: FIXTURE, REQUIRE_HTTPS: 'true', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => h.close());

  it('redirects plain HTTP first, then serves the app with upgrade-insecure-requests', async () => {
    const plain = await request(h.app).get('/settings');
    expect(plain.status).toBe(308);
    const secure = await request(h.app).get('/settings').set('X-Forwarded-Proto', 'https');
    expect(secure.status).toBe(200);
    expect(cspOf(secure)).toHaveProperty('upgrade-insecure-requests');
  });
});
