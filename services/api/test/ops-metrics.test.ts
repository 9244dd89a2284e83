import request from 'supertest';
import { aCaller, metricValue } from '@uptime/testing';
import { startApiHarness, type ApiHarness } from './support/api-harness';

describe('api /healthz, /readyz and its request metrics', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    // HTTPS required (behind a trusted proxy): the ops paths must still answer plain HTTP probes.
    h = await startApiHarness({ REQUIRE_HTTPS: 'true', TRUST_PROXY: 'true' });
    await h.reset();
  });
  afterAll(() => h.close());

  it('answers /healthz and /readyz over plain HTTP, without credentials', async () => {
    for (let i = 0; i < 3; i += 1) {
      const live = await request(h.app).get('/healthz');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      const ready = await request(h.app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({
        status: 'ready',
        checks: { database: { ok: true, latency_ms: expect.any(Number) }, redis: { ok: true, latency_ms: expect.any(Number) } },
      });
    }
    // Everything else is still redirected to https.
    expect((await request(h.app).get('/api/v1/monitors')).status).toBe(308);
  });

  it('exports request durations by method, route template and status', async () => {
    const { auth } = await aCaller(h.ds);
    const viaHttps = (path: string) => request(h.app).get(path).set('X-Forwarded-Proto', 'https').set('Authorization', auth);
    // Counted whatever the answer: success, a domain 404 thrown inside a nested router, no route at all.
    expect((await viaHttps('/api/v1/monitors')).status).toBe(200);
    expect((await viaHttps('/api/v1/monitors/987654')).status).toBe(404);
    expect((await viaHttps('/api/v1/monitors/987655')).status).toBe(404);
    expect((await viaHttps('/no-such-page')).status).toBe(404);

    const text = await h.metrics.render();
    const count = (labels: Record<string, string>) => metricValue(text, 'http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/healthz', status: '200' })).toBe(3);
    expect(count({ method: 'GET', route: '/readyz', status: '200' })).toBe(3);
    expect(count({ method: 'GET', route: '/api/v1/monitors', status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/v1/monitors/:id', status: '404' })).toBe(2);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '308' })).toBe(1);
    // Label values are templates, never raw ids.
    expect(text).not.toContain('987654');
  });

  it('answers /metrics on its own port with 404, to anyone: the health listener serves them', async () => {
    const { auth } = await aCaller(h.ds);
    for (const headers of [{}, { Authorization: auth }]) {
      const res = await request(h.app).get('/metrics').set('X-Forwarded-Proto', 'https').set(headers);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect(res.text).not.toContain('http_request_duration_seconds');
    }
  });
});

describe('api ops paths and the rate limit', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await startApiHarness({ RATE_LIMIT_PER_HOUR: '1' });
    await h.reset();
  });
  afterAll(() => h.close());

  it('keeps answering /readyz and /healthz after the caller is rate limited', async () => {
    await request(h.app).get('/api/v1/monitors');
    expect((await request(h.app).get('/api/v1/monitors')).status).toBe(429);
    expect((await request(h.app).get('/readyz')).status).toBe(200);
    expect((await request(h.app).get('/healthz')).status).toBe(200);
  });
});
