import { forwardPort, freePort, startServiceProcess, waitFor, type ServiceProcess, type TcpForwarder } from '@uptime/testing';

jest.setTimeout(60_000);

const get = async (
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: string } | null> => {
  try {
    const res = await fetch(url, { headers });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch {
    return null;
  }
};

describe('api process while Postgres is down', () => {
  let api: ServiceProcess | undefined;
  let forwarder: TcpForwarder | undefined;
  afterEach(async () => {
    await api?.stop();
    await forwarder?.close();
  });

  it('answers /healthz 200, /readyz 503 and the API 503 until Postgres answers, then serves requests', async () => {
    const real = new URL(process.env.DATABASE_URL!);
    const dbPort = await freePort();
    const down = new URL(real.toString());
    down.port = String(dbPort);
    const port = await freePort();
    api = startServiceProcess('api', {
      DATABASE_URL: down.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_HOUR: '0',
    });
    const base = `http://127.0.0.1:${port}`;

    await waitFor(async () => (await get(`${base}/healthz`))?.status === 200, { timeoutMs: 30_000, what: '/healthz' });
    // Redis connects within milliseconds of listening; Postgres is the one that stays away.
    const notReady = await waitFor(
      async () => {
        const res = await get(`${base}/readyz`);
        return res && (JSON.parse(res.body) as { checks: { redis: { ok: boolean } } }).checks.redis.ok ? res : null;
      },
      { what: '/readyz to see Redis' },
    );
    expect(notReady?.status).toBe(503);
    expect(JSON.parse(notReady!.body)).toMatchObject({ status: 'unavailable', checks: { database: { ok: false }, redis: { ok: true } } });
    const starting = await get(`${base}/api/v1/monitors`, { 'X-Request-Id': 'ops-test-starting-1' });
    expect(starting?.status).toBe(503);
    expect(starting?.headers.get('retry-after')).toBe('5');
    expect(JSON.parse(starting!.body)).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/database/) },
      meta: { timestamp: expect.any(String), request_id: 'ops-test-starting-1' },
    });
    expect(api.child.exitCode).toBeNull();

    forwarder = await forwardPort(dbPort, { host: real.hostname, port: Number(real.port || 5432) });
    await waitFor(async () => (await get(`${base}/readyz`))?.status === 200, { timeoutMs: 20_000, what: '/readyz to turn 200' });
    const served = await get(`${base}/api/v1/monitors`, { 'X-Request-Id': 'ops-test-request-42' });
    expect(served?.status).toBe(401);
    expect(JSON.parse(served!.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' }, meta: { request_id: 'ops-test-request-42' } });

    // The request's JSON log line carries its request id.
    await waitFor(() => api!.logs.some((l) => l.request_id === 'ops-test-request-42'), { what: 'the request log line' });
    expect(api.logs.find((l) => l.request_id === 'ops-test-request-42')).toMatchObject({
      service: 'api',
      level: 30,
      req: expect.objectContaining({ method: 'GET', url: '/api/v1/monitors' }),
      res: expect.objectContaining({ statusCode: 401 }),
    });
    // Probes are not logged.
    expect(api.logs.some((l) => (l.req as { url?: string } | undefined)?.url === '/readyz')).toBe(false);

    expect(await api.stop()).toBe(0);
  });
});
