import request from 'supertest';
import { expectMeta, startApiHarness, type ApiHarness } from './support/api-harness';

const GITHUB = { GITHUB_CLIENT_ID: 'gh-client', GITHUB_CLIENT_SECRET: 'gh-secret' };
const GOOGLE = { GOOGLE_CLIENT_ID: 'google-client', GOOGLE_CLIENT_SECRET: 'google-secret' };

describe('GET /api/v1/auth/providers: the sign-in buttons to show', () => {
  const harnesses: ApiHarness[] = [];
  const appWith = async (env: Record<string, string>) => {
    const h = await startApiHarness(env);
    harnesses.push(h);
    return h.app;
  };
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.close()));
  });

  it.each([
    ['both providers', { ...GOOGLE, ...GITHUB }, ['github', 'google']],
    ['GitHub only', GITHUB, ['github']],
    ['Google only', GOOGLE, ['google']],
    ['none', {}, []],
  ])('lists the configured ones without a caller: %s', async (_name, env, expected) => {
    const res = await request(await appWith(env)).get('/api/v1/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ providers: expected });
    expectMeta(res);
    // Asking starts no session.
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
