import { forwardPort, freePort, getIfAnswering as get, metricValue, startServiceProcess, waitFor, type ServiceProcess, type TcpForwarder } from '@uptime/testing';

jest.setTimeout(60_000);

interface ReadyBody {
  status: string;
  checks: Record<string, { ok: boolean; error?: string }>;
}

describe('check-worker process health while Postgres is down', () => {
  let worker: ServiceProcess | undefined;
  let forwarder: TcpForwarder | undefined;
  afterEach(async () => {
    await worker?.stop();
    await forwarder?.close();
  });

  it('answers /healthz 200 and /readyz 503 until Postgres answers, then becomes ready without a restart', async () => {
    const real = new URL(process.env.DATABASE_URL!);
    const dbPort = await freePort();
    const down = new URL(real.toString());
    down.port = String(dbPort);
    const healthPort = await freePort();
    worker = startServiceProcess('check-worker', { DATABASE_URL: down.toString(), HEALTH_PORT: String(healthPort), LOG_LEVEL: 'info' });
    const base = `http://127.0.0.1:${healthPort}`;

    await waitFor(async () => (await get(`${base}/healthz`))?.status === 200, { timeoutMs: 30_000, what: '/healthz' });
    await waitFor(() => worker!.logs.some((l) => l.msg === 'database unavailable; retrying'), { what: 'a failed connection attempt' });
    // Redis is up, but the worker's connection to it may still be opening on a loaded machine
    // (nothing is queued while it is: the probe then fails at once); wait until it has.
    let notReady: { status: number; body: string } | null = null;
    await waitFor(
      async () => {
        notReady = await get(`${base}/readyz`);
        return notReady !== null && (JSON.parse(notReady.body) as ReadyBody).checks.redis?.ok === true;
      },
      { timeoutMs: 10_000, what: 'the Redis connection' },
    );
    expect(notReady!.status).toBe(503);
    const body = JSON.parse(notReady!.body) as ReadyBody;
    expect(body.status).toBe('unavailable');
    expect(body.checks.database).toMatchObject({ ok: false });
    expect(body.checks.redis).toMatchObject({ ok: true });
    // /metrics answers too (process metrics), and the process keeps retrying rather than exiting.
    expect(metricValue((await get(`${base}/metrics`))!.body, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(worker.child.exitCode).toBeNull();

    // Postgres "comes up" on the address the worker was given.
    forwarder = await forwardPort(dbPort, { host: real.hostname, port: Number(real.port || 5432) });
    await waitFor(async () => (await get(`${base}/readyz`))?.status === 200, { timeoutMs: 20_000, what: '/readyz to turn 200' });
    await waitFor(() => worker!.logs.some((l) => l.msg === 'check-worker started'), { what: 'the worker to start consuming' });
    const text = (await get(`${base}/metrics`))!.body;
    expect(metricValue(text, 'queue_jobs', { queue: 'checks', state: 'waiting' })).toBe(0);

    expect(await worker.stop()).toBe(0);
  });

  it('exits 0 at once on SIGTERM while still waiting for Postgres', async () => {
    const down = new URL(process.env.DATABASE_URL!);
    down.port = String(await freePort());
    const healthPort = await freePort();
    worker = startServiceProcess('check-worker', { DATABASE_URL: down.toString(), HEALTH_PORT: String(healthPort), LOG_LEVEL: 'info' });
    await waitFor(() => worker!.logs.some((l) => l.msg === 'database unavailable; retrying'), {
      timeoutMs: 30_000,
      what: 'a failed connection attempt',
    });
    const started = Date.now();
    expect(await worker.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
