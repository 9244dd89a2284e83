import { Client } from 'pg';
import { freePort, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';

/**
 * Two API processes launched together on one fresh database, polled from the moment they start:
 * 503 until migrations have run and every dependency is ready, then served, never a 500; each
 * 503 is one info line without a stack.
 */
jest.setTimeout(90_000);

const fresh = new URL(process.env.DATABASE_URL!);
fresh.pathname = `/${fresh.pathname.slice(1)}_startup_race`;

async function dropFreshDatabase(): Promise<void> {
  const admin = new URL(fresh.toString());
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${fresh.pathname.slice(1)}" WITH (FORCE)`);
  await client.end();
}

let instances: ServiceProcess[] = [];

beforeAll(dropFreshDatabase);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await dropFreshDatabase();
});

it('answers 503 then 401, never 500, from two instances starting together on a fresh database', async () => {
  const ports = [await freePort(), await freePort()];
  instances = ports.map((port) =>
    startServiceProcess('api', { DATABASE_URL: fresh.toString(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_PER_HOUR: '0' }),
  );
  const seen: { port: number; status: number; code?: string }[] = [];
  // A well-formed token nobody holds: after start-up it is a 401, which needs the api_tokens table.
  const poll = async (port: number): Promise<boolean> => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/monitors`, {
        headers: { Authorization: 'Bearer upt_nobodyholdsthistokennobodyholdsthistoken0' },
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json()) as { error?: { code?: string } };
      seen.push({ port, status: res.status, code: body.error?.code });
      return res.status === 401;
    } catch {
      return false; // not listening yet
    }
  };
  await Promise.all(ports.map((port) => waitFor(() => poll(port), { timeoutMs: 60_000, intervalMs: 10, what: `instance on ${port} to serve` })));

  expect(seen.filter((s) => s.status !== 503 && s.status !== 401)).toEqual([]);
  for (const port of ports) {
    const statuses = seen.filter((s) => s.port === port).map((s) => s.status);
    // All 503s come before the first 401: once served, it stays served.
    expect(statuses.slice(statuses.indexOf(401)).every((s) => s === 401)).toBe(true);
  }
  expect(seen.some((s) => s.status === 503 && s.code === 'SERVICE_UNAVAILABLE')).toBe(true);
  for (const instance of instances) {
    const unavailable = instance.logs.filter((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 503);
    for (const line of unavailable) {
      expect(line).toMatchObject({ level: 30, msg: 'service unavailable', reason: expect.any(String) });
      expect(JSON.stringify(line)).not.toMatch(/"stack"|\bat .+:\d+:\d+/);
    }
    expect(instance.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
  }
});
