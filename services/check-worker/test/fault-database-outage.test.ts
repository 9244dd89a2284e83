import type { Redis } from 'ioredis';
import { createDataSource, type DataSource } from '@uptime/db';
import { createLogger, type Logger } from '@uptime/logger';
import { createServiceMetrics, type ServiceMetrics } from '@uptime/observability';
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
const MODES = ['refuse', 'hang'] as const;
type Mode = (typeof MODES)[number];

jest.setTimeout(OUTAGE_MS + 100_000);

/** What one mode's run needs: its own Postgres proxy, Redis prefix, target and worker. */
interface OutageRig {
  mode: Mode;
  proxy: FaultProxy;
  proxied: DataSource;
  redis: Redis;
  scheduler: MonitorScheduler;
  target: FakeHttpServer;
  backlogKey: string;
  metrics: ServiceMetrics;
  logger: Logger;
  worker: RunningCheckWorker | undefined;
  /** The target answers 503 on /flip while this is set. */
  flipDown: boolean;
  close(): Promise<void>;
}

/**
 * A check-worker whose Postgres goes away (connections refused, or the port open and nothing
 * flowing) keeps every result, writes them back in order once Postgres returns, and a monitor
 * that went down meanwhile gets its incident, with the real start time, and its status event queued
 * for the notifiers, within 5 s.
 *
 * The two modes run at the same time, each through its own proxy, with its own queue prefix (so
 * its own result backlog in Redis) and its own monitors: one outage's wall time for both.
 */
describe('a Postgres outage', () => {
  let observer: DataSource;

  beforeAll(async () => {
    observer = await openTestDatabase();
    await resetDatabase(observer);
    await resetRedis();
  });
  afterAll(async () => {
    await observer?.destroy();
  });

  async function startRig(mode: Mode): Promise<OutageRig> {
    const config = testConfig({
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}_${mode}`,
      RESULT_BUFFER_MEMORY_MAX: '4',
      RESULT_BUFFER_REDIS_MAX: '10000',
    });
    const direct = new URL(process.env.DATABASE_URL!);
    const proxy = await startFaultProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.port = String(proxy.port);
    const proxied = createDataSource(viaProxy.toString(), { poolSize: 5, applicationName: `uptime-outage-test-${mode}` });
    await proxied.initialize();
    const redis = createRedisConnection(config.redis.url, `fault-database-outage-test-${mode}`);
    const scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
    const metrics = createServiceMetrics();
    const logger = createLogger({ level: config.logLevel, service: `fault-database-outage-test-${mode}` });
    const rig: OutageRig = {
      mode,
      proxy,
      proxied,
      redis,
      scheduler,
      target: await startFakeHttpServer((req, res) => {
        const down = req.url.startsWith('/flip') && rig.flipDown;
        res.writeHead(down ? 503 : 200, { 'content-type': 'text/plain' });
        res.end(down ? 'down' : 'up');
      }),
      backlogKey: `${config.redis.queuePrefix}:result-backlog`,
      metrics,
      logger,
      worker: undefined,
      flipDown: false,
      async close() {
        await rig.worker?.close();
        await scheduler.close();
        await redis.quit();
        await rig.target.close();
        await proxied.destroy().catch(() => undefined);
        await proxy.close();
      },
    };
    rig.worker = await startCheckWorker({ config, dataSource: proxied, logger, metrics });
    return rig;
  }

  const resultsOf = async (monitorId: number): Promise<{ ok: boolean; scheduled_at: Date }[]> =>
    observer.query('SELECT ok, scheduled_at FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [monitorId]);

  it.concurrent.each(MODES)('(%s) loses no result, and opens the incident at its real start and queues its event within 5 s of recovery', async (mode) => {
    const rig = await startRig(mode);
    try {
      await outageLosesNothing(rig);
    } finally {
      await rig.close();
    }
  });

  async function outageLosesNothing(rig: OutageRig): Promise<void> {
    const { proxy, redis, scheduler, target, backlogKey } = rig;
    const owner = await aUser(observer);
    const steady = await aMonitor(observer, owner, { url: `${target.url}/steady`, checkInterval: 1, timeout: 5 });
    const flip = await aMonitor(observer, owner, { url: `${target.url}/flip`, checkInterval: 1, timeout: 5 });
    await Promise.all([scheduler.schedule(steady), scheduler.schedule(flip)]);
    await waitFor(async () => (await resultsOf(flip.id)).length >= 2 && (await resultsOf(steady.id)).length >= 2, {
      timeoutMs: 20_000,
      what: 'results before the outage',
    });

    // The outage is a span of time that must pass with Postgres away: these sleeps are its length.
    proxy.setMode(rig.mode);
    const outageStart = Date.now();
    await sleep(OUTAGE_MS / 3);
    rig.flipDown = true;
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
    rig.logger.info({ mode: rig.mode, noticed_after_ms: noticedAfterMs }, 'incident recorded after recovery');
    expect(noticedAfterMs).toBeLessThanOrEqual(5_000);
    // The real time of the first failed check, inside the outage, not the time it was written.
    expect(incident.started_at.getTime()).toBeGreaterThanOrEqual(downSince - 1_000);
    expect(incident.started_at.getTime()).toBeLessThan(recoveredAt);
    // The notifiers hear of it as soon as the event is queued for them (published_at is set after that).
    await waitFor(
      async () =>
        (
          (await observer.query(`SELECT to_status FROM status_events WHERE monitor_id = $1 AND to_status = 'offline' AND published_at IS NOT NULL`, [
            flip.id,
          ])) as { to_status: string }[]
        )[0],
      { timeoutMs: 10_000, intervalMs: 50, what: 'the offline event queued for the notifiers' },
    );
    const publishedAfterMs = Date.now() - recoveredAt;
    rig.logger.info({ mode: rig.mode, published_after_ms: publishedAfterMs }, 'offline event queued for the notifiers after recovery');
    expect(publishedAfterMs).toBeLessThanOrEqual(5_000);

    // Stop checking, let the backlog empty, then count: every request a check made is a stored result.
    await Promise.all([scheduler.unschedule(steady.id), scheduler.unschedule(flip.id)]);
    await waitFor(async () => (await redis.llen(backlogKey)) === 0, { what: 'the Redis backlog to be written' });
    await rig.worker!.close();
    rig.worker = undefined;
    expect(await redis.llen(backlogKey)).toBe(0);
    const steadyResults = await resultsOf(steady.id);
    const flipResults = await resultsOf(flip.id);
    const checksMade = (path: string) => target.requests.filter((r) => r.url.startsWith(path)).length;
    expect(steadyResults.length).toBe(checksMade('/steady'));
    expect(flipResults.length).toBe(checksMade('/flip'));
    const finished = (await rig.metrics.checks.get()).values.filter((v) => v.labels.result !== 'skipped').reduce((sum, v) => sum + v.value, 0);
    expect(steadyResults.length + flipResults.length).toBe(finished);
    // Results of checks made during the outage are there, with their own check times.
    const during = <T extends { scheduled_at: Date }>(rows: T[]): T[] => rows.filter((r) => r.scheduled_at.getTime() > outageStart + 1_000 && r.scheduled_at.getTime() < recoveredAt - 1_000);
    expect(during(steadyResults).length).toBeGreaterThanOrEqual(3);
    expect(during(flipResults).filter((r) => !r.ok).length).toBeGreaterThanOrEqual(2);
    // Postgres being away is our failure, never the target's: the steady monitor never went down.
    expect(steadyResults.every((r) => r.ok)).toBe(true);
  }
});
