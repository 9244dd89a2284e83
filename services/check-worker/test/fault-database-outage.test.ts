import type { Redis } from 'ioredis';
import { createDataSource, type DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createServiceMetrics } from '@uptime/observability';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  openTestDatabase,
  resetDatabase,
  resetRedis,
  sleep,
  startFakeHttpServer,
  startFaultProxy,
  testConfig,
  waitFor,
  type FakeHttpServer,
  type FaultProxy,
} from '@uptime/testing';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';

/**
 * Shorter than the 60 s the worker is built to ride out, to keep the suite quick;
 * `FAULT_OUTAGE_MS=60000` runs the full target (docs/reliability.md).
 */
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 12_000);

jest.setTimeout(OUTAGE_MS + 100_000);

/**
 * A check-worker whose Postgres goes away (connections refused, or the port open and nothing
 * flowing) keeps every result, writes them back in order once Postgres returns, and a monitor
 * that went down meanwhile gets its incident, with the real start time, within 5 s.
 */
describe.each(['refuse', 'hang'] as const)('a Postgres outage (%s)', (mode) => {
  const config = testConfig({ RESULT_BUFFER_MEMORY_MAX: '4', RESULT_BUFFER_REDIS_MAX: '10000' });
  const logger = createLogger({ level: config.logLevel, service: 'fault-database-outage-test' });
  const backlogKey = `${config.redis.queuePrefix}:result-backlog`;
  let observer: DataSource;
  let proxied: DataSource;
  let proxy: FaultProxy;
  let redis: Redis;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let worker: RunningCheckWorker | undefined;
  let flipDown = false;

  beforeAll(async () => {
    observer = await openTestDatabase();
    await resetDatabase(observer);
    await resetRedis();
    const direct = new URL(process.env.DATABASE_URL!);
    proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.port = String(proxy.port);
    proxied = createDataSource(viaProxy.toString(), { poolSize: 5, applicationName: 'uptime-outage-test' });
    await proxied.initialize();
    redis = createRedisConnection(config.redis.url, 'fault-database-outage-test');
    scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
    target = await startFakeHttpServer((req, res) => {
      const down = req.url.startsWith('/flip') && flipDown;
      res.writeHead(down ? 503 : 200, { 'content-type': 'text/plain' });
      res.end(down ? 'down' : 'up');
    });
  });
  afterAll(async () => {
    await worker?.close();
    await scheduler?.close();
    await redis?.quit();
    await target?.close();
    await proxied?.destroy().catch(() => undefined);
    await proxy?.close();
    await observer?.destroy();
  });

  const resultsOf = async (monitorId: number): Promise<{ ok: boolean; scheduled_at: Date }[]> =>
    observer.query('SELECT ok, scheduled_at FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [monitorId]);

  it('loses no result and opens the incident at its real start within 5 s of recovery', async () => {
    const metrics = createServiceMetrics();
    worker = await startCheckWorker({ config, dataSource: proxied, logger, metrics });
    const owner = await aUser(observer);
    const steady = await aMonitor(observer, owner, { url: `${target.url}/steady`, checkInterval: 1, timeout: 5 });
    const flip = await aMonitor(observer, owner, { url: `${target.url}/flip`, checkInterval: 1, timeout: 5 });
    await Promise.all([scheduler.schedule(steady), scheduler.schedule(flip)]);
    await waitFor(async () => (await resultsOf(flip.id)).length >= 2 && (await resultsOf(steady.id)).length >= 2, {
      timeoutMs: 20_000,
      what: 'results before the outage',
    });

    proxy.setMode(mode);
    const outageStart = Date.now();
    await sleep(OUTAGE_MS / 3);
    flipDown = true;
    const downSince = Date.now();
    // Past its memory bound, the worker keeps results in Redis.
    await waitFor(async () => (await redis.llen(backlogKey)) > 0, { timeoutMs: OUTAGE_MS, what: 'results kept in Redis' });
    await sleep(Math.max(0, outageStart + OUTAGE_MS - Date.now()));
    proxy.setMode('pass');
    const recoveredAt = Date.now();

    const incident = await waitFor(
      async () => ((await observer.query('SELECT started_at FROM incidents WHERE monitor_id = $1', [flip.id])) as { started_at: Date }[])[0],
      { timeoutMs: 10_000, intervalMs: 50, what: 'the incident of the monitor that went down during the outage' },
    );
    const noticedAfterMs = Date.now() - recoveredAt;
    logger.info({ mode, noticed_after_ms: noticedAfterMs }, 'incident recorded after recovery');
    expect(noticedAfterMs).toBeLessThanOrEqual(5_000);
    // The real time of the first failed check, inside the outage, not the time it was written.
    expect(incident.started_at.getTime()).toBeGreaterThanOrEqual(downSince - 1_000);
    expect(incident.started_at.getTime()).toBeLessThan(recoveredAt);
    const [event] = (await observer.query(`SELECT to_status FROM status_events WHERE monitor_id = $1 AND to_status = 'offline'`, [flip.id])) as {
      to_status: string;
    }[];
    expect(event).toEqual({ to_status: 'offline' });

    // Stop checking, let the backlog empty, then count: every request a check made is a stored result.
    await Promise.all([scheduler.unschedule(steady.id), scheduler.unschedule(flip.id)]);
    await waitFor(async () => (await redis.llen(backlogKey)) === 0, { what: 'the Redis backlog to be written' });
    await worker.close();
    worker = undefined;
    expect(await redis.llen(backlogKey)).toBe(0);
    const steadyResults = await resultsOf(steady.id);
    const flipResults = await resultsOf(flip.id);
    const checksMade = (path: string) => target.requests.filter((r) => r.url.startsWith(path)).length;
    expect(steadyResults.length).toBe(checksMade('/steady'));
    expect(flipResults.length).toBe(checksMade('/flip'));
    const finished = (await metrics.checks.get()).values.filter((v) => v.labels.result !== 'skipped').reduce((sum, v) => sum + v.value, 0);
    expect(steadyResults.length + flipResults.length).toBe(finished);
    // Results of checks made during the outage are there, with their own check times.
    const during = <T extends { scheduled_at: Date }>(rows: T[]): T[] => rows.filter((r) => r.scheduled_at.getTime() > outageStart + 1_000 && r.scheduled_at.getTime() < recoveredAt - 1_000);
    expect(during(steadyResults).length).toBeGreaterThanOrEqual(3);
    expect(during(flipResults).filter((r) => !r.ok).length).toBeGreaterThanOrEqual(2);
    // Postgres being away is our failure, never the target's: the steady monitor never went down.
    expect(steadyResults.every((r) => r.ok)).toBe(true);
  });
});
