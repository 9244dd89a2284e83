import { freePort, getIfAnswering as get, startServiceProcess, waitFor, type ServiceProcess } from '@uptime/testing';

jest.setTimeout(60_000);

describe('notifier process health while Redis is down', () => {
  let notifier: ServiceProcess | undefined;
  afterEach(() => notifier?.stop());

  it('answers /healthz 200 and /readyz 503 naming Redis, and exits 0 on SIGTERM', async () => {
    const healthPort = await freePort();
    notifier = startServiceProcess('notifier', {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'info',
    });
    const base = `http://127.0.0.1:${healthPort}`;

    await waitFor(() => notifier!.logs.some((l) => l.msg === 'database connected and migrated'), {
      timeoutMs: 30_000,
      what: 'the database',
    });
    expect((await get(`${base}/healthz`))?.status).toBe(200);
    const ready = await get(`${base}/readyz`);
    expect(ready?.status).toBe(503);
    expect(JSON.parse(ready!.body)).toEqual({
      status: 'unavailable',
      checks: {
        database: { ok: true, latency_ms: expect.any(Number) },
        redis: { ok: false, latency_ms: expect.any(Number), error: expect.stringMatching(/^connection (connecting|reconnecting|close)/) },
      },
    });
    expect(notifier.child.exitCode).toBeNull();
    expect(await notifier.stop()).toBe(0);
  });
});
