import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import {
  createReadiness,
  createServiceMetrics,
  startHealthServer,
  type RunningHealthServer,
  type ServiceMetrics,
} from '@uptime/observability';
import { JobName, MonitorScheduler } from '@uptime/queues';
import {
  aCheckConfig,
  aMonitor,
  answer,
  aUser,
  metricValue,
  startFakeDnsServer,
  testConfig,
  waitFor,
  type FakeHttpServer,
} from '@uptime/testing';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

describe('check-worker metrics', () => {
  const config = testConfig();
  const logger = createLogger({ level: config.logLevel, service: 'check-worker-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let redis: Redis;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let metrics: ServiceMetrics;
  let worker: RunningCheckWorker;
  let health: RunningHealthServer;

  beforeAll(async () => {
    bed = await startSchedulerBed('ops-metrics-test');
    ({ ds, redis, scheduler, target } = bed);
    metrics = createServiceMetrics({ processMetrics: true });
    worker = await startCheckWorker({ config, dataSource: ds, logger, metrics });
    health = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      readiness: createReadiness({ dataSource: ds, redis }),
      metrics,
      logger,
    });
  });

  afterAll(async () => {
    await health?.close();
    await worker?.close();
    await bed?.close();
  });

  const scrape = async (): Promise<string> => {
    const res = await fetch(`${health.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const resultsOf = async (monitorId: number): Promise<number> =>
    Number(((await ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1', [monitorId])) as { n: number }[])[0].n);
  // A check is counted just after its batch commits (meteredRecord() in check-metrics.ts): the
  // row can be read a moment before the counter moves, so a test waits for both.
  const counted = async (result: 'up' | 'down'): Promise<boolean> => metricValue(await scrape(), 'checks_total', { result }) !== undefined;

  it('counts up and down checks with their duration and schedule lag', async () => {
    const owner = await aUser(ds);
    const monitor = await aMonitor(ds, owner, { url: `${target.url}/up`, timeout: 5 });
    const startedAt = Date.now();
    await scheduler.checkNow(monitor);
    await waitFor(async () => (await resultsOf(monitor.id)) === 1 && (await counted('up')), { what: 'the up result, recorded and counted' });

    let text = await scrape();
    expect(metricValue(text, 'checks_total', { result: 'up' })).toBe(1);
    expect(metricValue(text, 'checks_total', { result: 'down' })).toBeUndefined();
    expect(metricValue(text, 'check_duration_seconds_count', { result: 'up' })).toBe(1);
    const duration = metricValue(text, 'check_duration_seconds_sum', { result: 'up' })!;
    expect(duration).toBeGreaterThanOrEqual(0);
    expect(duration).toBeLessThan((Date.now() - startedAt) / 1000);
    // One shard without CHECK_SHARDS (docs/scaling.md): shard 0.
    expect(metricValue(text, 'uptime_check_lag_seconds_count', { shard: '0' })).toBe(1);
    const lag = metricValue(text, 'uptime_check_lag_seconds_sum')!;
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan((Date.now() - startedAt) / 1000);
    // prom-client's process metrics ride along.
    expect(metricValue(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metricValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);

    target.respond(answer(503, 'maintenance'));
    await scheduler.checkNow(monitor);
    await waitFor(async () => (await resultsOf(monitor.id)) === 2 && (await counted('down')), { what: 'the down result, recorded and counted' });
    text = await scrape();
    expect(metricValue(text, 'checks_total', { result: 'up' })).toBe(1);
    expect(metricValue(text, 'checks_total', { result: 'down' })).toBe(1);
    expect(metricValue(text, 'check_duration_seconds_count', { result: 'down' })).toBe(1);
    expect(metricValue(text, 'uptime_check_lag_seconds_count')).toBe(2);

    // Each check is counted under its monitor's type.
    expect(metricValue(text, 'checks_total', { result: 'up', type: 'http' })).toBe(1);
    const port = new URL(target.url).port;
    const tcp = await aMonitor(ds, owner, { type: 'tcp', url: `tcp://127.0.0.1:${port}`, timeout: 5 });
    await scheduler.checkNow(tcp);
    await waitFor(async () => metricValue(await scrape(), 'checks_total', { result: 'up', type: 'tcp' }) === 1, { what: 'the tcp check, counted under its type' });
    expect(metricValue(await scrape(), 'check_duration_seconds_count', { result: 'up', type: 'tcp' })).toBe(1);
    const dns = await startFakeDnsServer();
    try {
      const name = await aMonitor(ds, owner, { type: 'dns', url: 'dns://gone.example.test', dnsResolver: dns.resolver, timeout: 5 });
      await scheduler.checkNow(name);
      await waitFor(async () => metricValue(await scrape(), 'checks_total', { result: 'down', type: 'dns' }) === 1, { what: 'the dns check (NXDOMAIN), counted under its type' });
    } finally {
      await dns.close();
    }
  });

  it('counts a check skipped because the previous one of its monitor still runs', async () => {
    const owner = await aUser(ds);
    const monitor = await aMonitor(ds, owner, { url: `${target.url}/busy` });
    // Another worker holds this monitor's check lock.
    await redis.set(`${config.redis.queuePrefix}:check-lock:${monitor.id}`, 'another-worker', 'PX', 60_000);
    const before = metricValue(await scrape(), 'checks_total', { result: 'skipped' }) ?? 0;
    await scheduler.checkNow(monitor);

    await waitFor(async () => metricValue(await scrape(), 'checks_total', { result: 'skipped' }) === before + 1, {
      what: 'the skipped check',
    });
    expect(await resultsOf(monitor.id)).toBe(0);
    expect(target.requests.filter((r) => r.url === '/busy')).toHaveLength(0);
  });

  it('reports the queue depth by state, read from Redis at scrape time', async () => {
    const owner = await aUser(ds);
    const monitor = await aMonitor(ds, owner, { url: `${target.url}/later` });
    const job = {
      monitorId: monitor.id,
      configVersion: 1,
      check: aCheckConfig(monitor.url),
    };
    await scheduler.queue.add(JobName.runCheck, job, { delay: 600_000, jobId: `later-${monitor.id}` });
    await scheduler.queue.add(JobName.runCheck, job, { delay: 600_000, jobId: `later-again-${monitor.id}` });

    const text = await scrape();
    expect(metricValue(text, 'queue_jobs', { queue: 'checks', state: 'delayed', shard: '0' })).toBe(2);
    expect(metricValue(text, 'queue_jobs', { queue: 'checks', state: 'waiting' })).toBe(0);
    expect(metricValue(text, 'queue_jobs', { queue: 'checks', state: 'active' })).toBe(0);
    await scheduler.queue.remove(`later-${monitor.id}`);
    await scheduler.queue.remove(`later-again-${monitor.id}`);
    expect(metricValue(await scrape(), 'queue_jobs', { queue: 'checks', state: 'delayed' })).toBe(0);
  });

  it('answers /healthz and /readyz with Postgres and Redis up', async () => {
    const live = await fetch(`${health.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${health.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true, latency_ms: expect.any(Number) }, redis: { ok: true, latency_ms: expect.any(Number) } },
    });
    expect((await fetch(`${health.url}/elsewhere`)).status).toBe(404);
  });
});
