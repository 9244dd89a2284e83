import request from 'supertest';
import { startApiHarness, type ApiHarness } from './support/api-harness';

describe('the explorer at /api/docs', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ RATE_LIMIT_PER_HOUR: '1' });
  });
  afterAll(() => h.close());

  it('serves the page without a caller, with a CSP that keeps scripts on this origin', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(h.app).get('/api/docs');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('/api/docs/swagger-ui-bundle.js');
      expect(res.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('serves Swagger UI from the installed package and an init script that loads our document', async () => {
    const bundle = await request(h.app).get('/api/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(500_000);
    const css = await request(h.app).get('/api/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const init = await request(h.app).get('/api/docs/explorer-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain("url: '/api/v1/openapi.json'");
    expect(init.text).toContain('persistAuthorization: true');
  });

  it('answers 404 in the error envelope for a file the explorer does not have', async () => {
    const res = await request(h.app).get('/api/docs/nothing-here.js');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('asks browsers to upgrade to https only when REQUIRE_HTTPS is on', async () => {
    const strict = await startApiHarness({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'true' });
    try {
      const res = await request(strict.app).get('/api/docs').set('X-Forwarded-Proto', 'https');
      expect(res.status).toBe(200);
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
      const plain = await request(h.app).get('/api/docs');
      expect(String(plain.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    } finally {
      await strict.close();
    }
  });
});
