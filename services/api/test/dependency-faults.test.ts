import type { DataSource } from '@uptime/db';
import { aCaller, freePort, openTestDatabase, resetDatabase, startFaultProxy, startServiceProcess, waitFor, type FaultMode, type FaultProxy, type ServiceProcess } from '@uptime/testing';
import { signedInSessionCookie } from './support/session-cookie';

/**
 * Postgres and Redis refused or hung behind a TCP fault proxy, under the API process as it runs
 * in production: every request answers within 2 s, 503 in the error envelope with Retry-After,
 * and requests are served again within 2 s of the dependency's return, without a restart.
 */
jest.setTimeout(60_000);

const BOUND_MS = 2000;
const SECRET = 'fault-test-session-secret-0123456789';

let ds: DataSource;
let pgProxy: FaultProxy;
let redisProxy: FaultProxy;
let api: ServiceProcess;
let base: string;
let bearer: string;
let cookie: string;

interface Timed {
  status: number;
  ms: number;
  headers: Headers;
  body: { error?: { code: string; message: string }; checks?: Record<string, { ok: boolean }> };
}

async function timed(path: string, headers: Record<string, string> = {}): Promise<Timed> {
  const started = Date.now();
  // Far beyond the bound: a hang shows as a duration over it, not as a test timeout.
  const res = await fetch(`${base}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, ms: Date.now() - started, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

const asBearer = (): Promise<Timed> => timed('/api/v1/monitors', { Authorization: bearer });
const asSession = (): Promise<Timed> => timed('/api/v1/monitors', { Cookie: cookie });

function proxied(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

beforeAll(async () => {
  ds = await openTestDatabase();
  await resetDatabase(ds);
  const pg = new URL(process.env.DATABASE_URL!);
  const redis = new URL(process.env.REDIS_URL!);
  pgProxy = await startFaultProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  redisProxy = await startFaultProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  api = startServiceProcess('api', {
    DATABASE_URL: proxied(process.env.DATABASE_URL!, pgProxy.port),
    REDIS_URL: proxied(process.env.REDIS_URL!, redisProxy.port),
    SESSION_SECRET: SECRET,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_HOUR: '100000',
  });
  const caller = await aCaller(ds);
  bearer = caller.auth;
  cookie = await signedInSessionCookie(caller.user.id, { secret: SECRET, prefix: process.env.QUEUE_PREFIX! });
  await waitFor(async () => (await asBearer().catch(() => null))?.status === 200, { timeoutMs: 30_000, what: 'the API to serve' });
});

afterAll(async () => {
  expect(await api?.stop()).toBe(0);
  await pgProxy?.close();
  await redisProxy?.close();
  await ds?.destroy();
});

const cases: { dependency: 'database' | 'redis'; mode: FaultMode }[] = (process.env.H1_CASES ?? 'database:refuse,database:hang,redis:refuse,redis:hang')
  .split(',')
  .map((c) => ({ dependency: c.split(':')[0] as 'database' | 'redis', mode: c.split(':')[1] as FaultMode }));

/** Time to the first 503 and time to recover, per case: docs/reliability.md quotes them. */
const figures: string[] = [];
afterAll(() => {
  if (figures.length > 0) process.stdout.write(`dependency fault figures:\n${figures.join('\n')}\n`);
});

describe.each(cases)('$dependency $mode', ({ dependency, mode }) => {
  it('answers every request within 2 s, 503 with Retry-After while it lasts, and serves again within 2 s of its return', async () => {
    const proxy = dependency === 'database' ? pgProxy : redisProxy;
    expect((await asBearer()).status).toBe(200);
    expect((await asSession()).status).toBe(200);

    const faultAt = Date.now();
    proxy.setMode(mode);
    // Requests keep coming throughout, by token and by session, as clients' would.
    const during: Timed[] = [];
    let firstUnavailableMs: number | undefined;
    while (Date.now() - faultAt < 4000) {
      const answers = await Promise.all([asBearer(), asSession()]);
      during.push(...answers);
      if (firstUnavailableMs === undefined && answers.some((a) => a.status === 503)) firstUnavailableMs = Date.now() - faultAt;
    }
    for (const answer of during) {
      expect(answer.ms).toBeLessThan(BOUND_MS);
      expect([200, 503]).toContain(answer.status);
    }
    const unavailable = during.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    // Once noticed, it stays noticed: the last second is all 503.
    expect(during.slice(-4).map((a) => a.status)).toEqual([503, 503, 503, 503]);
    for (const answer of unavailable) {
      expect(answer.body.error?.code).toBe('SERVICE_UNAVAILABLE');
      expect(answer.headers.get('retry-after')).toBe('5');
    }

    const ready = await timed('/readyz');
    expect(ready.ms).toBeLessThan(BOUND_MS);
    expect(ready.status).toBe(503);
    expect(ready.body.checks?.[dependency]?.ok).toBe(false);
    expect(ready.body.checks?.[dependency === 'database' ? 'redis' : 'database']?.ok).toBe(true);
    const health = await timed('/healthz');
    expect(health.status).toBe(200);
    expect(health.ms).toBeLessThan(BOUND_MS);

    const backAt = Date.now();
    proxy.setMode('pass');
    const recovered = await waitFor(
      async () => {
        const [a, b] = await Promise.all([asBearer(), asSession()]);
        expect(a.ms).toBeLessThan(BOUND_MS);
        return a.status === 200 && b.status === 200;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'requests to be served again' },
    );
    expect(recovered).toBe(true);
    const recoveryMs = Date.now() - backAt;
    expect(recoveryMs).toBeLessThan(BOUND_MS);
    expect((await timed('/readyz')).status).toBe(200);
    figures.push(
      `${dependency} ${mode}: first 503 after ${firstUnavailableMs} ms, slowest answer ${Math.max(...during.map((a) => a.ms))} ms, served again ${recoveryMs} ms after its return`,
    );
  });
});
