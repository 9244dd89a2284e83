import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';
import { signedInSessionCookie } from './support/session-cookie';

const APP_URL = 'https://app.example.test/dashboard';
const CORS_ORIGIN = 'https://admin.example.test';
const SECRET = 'csrf-test-session-secret-0123456789';
const h = useApiHarness({ APP_URL, CORS_ORIGINS: `${CORS_ORIGIN}/`, SESSION_SECRET: SECRET });

let cookie: string;
let bearer: string;
let monitorId: number;

beforeEach(async () => {
  const caller = await aCaller(h.ds);
  bearer = caller.auth;
  cookie = await signedInSessionCookie(caller.user.id, { secret: SECRET, prefix: h.config.redis.queuePrefix });
  monitorId = (await aMonitor(h.ds, caller.user)).id;
});

type Credentials = 'session' | 'bearer';
const pause = (as: Credentials, headers: Record<string, string>) => {
  const req = request(h.app).post(`/api/v1/monitors/${monitorId}/pause`);
  if (as === 'session') req.set('Cookie', cookie);
  else req.set('Authorization', bearer);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
};
const statusOf = async (): Promise<string> => (await request(h.app).get(`/api/v1/monitors/${monitorId}`).set('Authorization', bearer)).body.data.status;

describe('CSRF: state-changing requests with the session cookie', () => {
  const refused: [string, Record<string, string>][] = [
    ['a foreign Origin', { Origin: 'https://evil.example.test', 'Sec-Fetch-Site': 'cross-site' }],
    ['a sibling subdomain', { Origin: 'https://evil.app.example.test', 'Sec-Fetch-Site': 'same-site' }],
    ['APP_URL on plain http', { Origin: 'http://app.example.test' }],
    ['Origin null', { Origin: 'null' }],
    ['no Origin and Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['no Origin and no Sec-Fetch-Site', {}],
  ];
  it.each(refused)('refuses %s with the cookie: 403 and nothing changes', async (_what, headers) => {
    const res = await pause('session', headers);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await statusOf()).not.toBe('paused');
  });

  it.each(refused)('lets %s through with a bearer token', async (_what, headers) => {
    expect((await pause('bearer', headers)).status).toBe(200);
    expect(await statusOf()).toBe('paused');
  });

  const allowed: [string, Record<string, string>][] = [
    ["APP_URL's origin", { Origin: 'https://app.example.test', 'Sec-Fetch-Site': 'same-origin' }],
    ['a CORS_ORIGINS entry', { Origin: CORS_ORIGIN, 'Sec-Fetch-Site': 'same-site' }],
    ['no Origin and Sec-Fetch-Site same-origin', { 'Sec-Fetch-Site': 'same-origin' }],
    ['no Origin and Sec-Fetch-Site same-site', { 'Sec-Fetch-Site': 'same-site' }],
    ['no Origin and Sec-Fetch-Site none', { 'Sec-Fetch-Site': 'none' }],
  ];
  it.each(allowed)('accepts %s with the cookie', async (_what, headers) => {
    expect((await pause('session', headers)).status).toBe(200);
    expect(await statusOf()).toBe('paused');
  });

  it.each(allowed)('accepts %s with a bearer token', async (_what, headers) => {
    expect((await pause('bearer', headers)).status).toBe(200);
  });

  it('leaves reads with the cookie alone, whatever their origin', async () => {
    const res = await request(h.app)
      .get(`/api/v1/monitors/${monitorId}`)
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example.test')
      .set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(200);
  });
});
