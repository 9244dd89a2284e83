import request, { type Response } from 'supertest';
import { aCaller, aToken, startFakeOAuthProvider, type FakeOAuthProvider } from '@uptime/testing';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';
import { signIn } from './support/oauth-sign-in';

const LIMIT = 3;

const counters = (res: Response) => ({
  status: res.status,
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
});

describe('rate limits shared through Redis', () => {
  let a: ApiHarness;
  let b: ApiHarness;
  let github: FakeOAuthProvider;

  beforeAll(async () => {
    github = await startFakeOAuthProvider('github');
    // Two API instances on one Redis, as behind a load balancer (sharing the session secret).
    const env = { RATE_LIMIT_PER_HOUR: String(LIMIT), SESSION_SECRET: 'a-secret-both-instances-share', ...github.env };
    a = await startApiHarness(env);
    b = await startApiHarness(env);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await github.close();
  });
  beforeEach(() => a.reset());

  it('counts down in the headers, then answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const { auth } = await aCaller(a.ds);
    const seen = [];
    for (let i = 0; i < LIMIT; i += 1) seen.push(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', auth)));
    expect(seen).toEqual([
      { status: 200, limit: '3', remaining: '2' },
      { status: 200, limit: '3', remaining: '1' },
      { status: 200, limit: '3', remaining: '0' },
    ]);
    const before = Math.floor(Date.now() / 1000);
    const limited = await request(a.app).get('/api/v1/monitors').set('Authorization', auth);
    expect(counters(limited)).toEqual({ status: 429, limit: '3', remaining: '0' });
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    expectMeta(limited);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // X-RateLimit-Reset is the Unix time (seconds) at which the window ends.
    const reset = Number(limited.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(before + 3500);
    expect(reset).toBeLessThanOrEqual(before + 3601);
    expect(Math.abs(reset - (before + retryAfter))).toBeLessThanOrEqual(2);
  });

  it('shares one count between two API instances', async () => {
    const { auth } = await aCaller(a.ds);
    expect(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', auth)).remaining).toBe('2');
    expect(counters(await request(b.app).get('/api/v1/monitors').set('Authorization', auth)).remaining).toBe('1');
    expect(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', auth)).remaining).toBe('0');
    expect((await request(b.app).get('/api/v1/monitors').set('Authorization', auth)).status).toBe(429);
    expect((await request(a.app).get('/api/v1/monitors').set('Authorization', auth)).status).toBe(429);
  });

  it('does not affect another user, nor callers without credentials from the same IP', async () => {
    const first = await aCaller(a.ds);
    const second = await aCaller(a.ds);
    for (let i = 0; i <= LIMIT; i += 1) await request(a.app).get('/api/v1/monitors').set('Authorization', first.auth);
    expect((await request(a.app).get('/api/v1/monitors').set('Authorization', first.auth)).status).toBe(429);
    expect(counters(await request(b.app).get('/api/v1/monitors').set('Authorization', second.auth))).toEqual({
      status: 200,
      limit: '3',
      remaining: '2',
    });
    expect(counters(await request(a.app).get('/api/v1/monitors'))).toEqual({ status: 401, limit: '3', remaining: '2' });
  });

  it('counts a user the same with any token or a session', async () => {
    const { user, auth } = await aCaller(a.ds, { email: 'multi@example.test' });
    const otherToken = await aToken(a.ds, user);
    expect(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', auth)).remaining).toBe('2');
    expect(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', `Bearer ${otherToken}`)).remaining).toBe('1');
    github.signInAs({ id: '5150', email: 'multi@example.test', emailVerified: true });
    const { cookie } = await signIn(a.app, 'github');
    expect(counters(await request(a.app).get('/api/v1/auth/user').set('Cookie', cookie))).toEqual({
      status: 200,
      limit: '3',
      remaining: '0',
    });
    expect((await request(b.app).get('/api/v1/monitors').set('Cookie', cookie)).status).toBe(429);
  });

  it('limits requests without a caller per IP, the 401s included', async () => {
    const answers = [];
    for (let i = 0; i < LIMIT; i += 1)
      answers.push(counters(await request(a.app).get('/api/v1/monitors').set('Authorization', 'Bearer upt_guessing')));
    expect(answers.map((r) => [r.status, r.remaining])).toEqual([
      [401, '2'],
      [401, '1'],
      [401, '0'],
    ]);
    const limited = await request(b.app).get('/api/v1/monitors');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Sign-in routes share the per-IP count.
    expect((await request(a.app).get('/api/v1/auth/github/login')).status).toBe(429);
  });

  it('puts the headers on every /api/v1 answer: errors, unknown routes, bodies refused', async () => {
    const { auth } = await aCaller(a.ds);
    const unknown = await request(a.app).get('/api/v1/no-such-thing').set('Authorization', auth);
    expect(counters(unknown)).toEqual({ status: 404, limit: '3', remaining: '2' });
    const notJson = await request(a.app)
      .post('/api/v1/monitors')
      .set('Authorization', auth)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(counters(notJson)).toEqual({ status: 415, limit: '3', remaining: '1' });
    expect(notJson.headers['x-ratelimit-reset']).toMatch(/^\d{10}$/);
  });

  it('sends no rate-limit headers and never limits when RATE_LIMIT_PER_HOUR is 0', async () => {
    const unlimited = await startApiHarness({ RATE_LIMIT_PER_HOUR: '0' });
    try {
      const { auth } = await aCaller(unlimited.ds);
      for (let i = 0; i < LIMIT + 2; i += 1) {
        const res = await request(unlimited.app).get('/api/v1/monitors').set('Authorization', auth);
        expect(res.status).toBe(200);
        expect(Object.keys(res.headers).filter((h) => h.startsWith('x-ratelimit') || h === 'retry-after')).toEqual([]);
      }
    } finally {
      await unlimited.close();
    }
  });
});
