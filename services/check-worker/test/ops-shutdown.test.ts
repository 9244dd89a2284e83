import type { Redis } from 'ioredis';
import type { DataSource, Monitor } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  resetDatabase,
  resetRedis,
  startServiceProcess,
  testConfig,
  waitFor,
  type FakeHandler,
  type FakeHttpServer,
} from '@uptime/testing';
import { startCheckWorker } from '../src/check-worker';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(60_000);

const SLOW_MS = 3000;

describe('check-worker shutdown', () => {
  const config = testConfig();
  const logger = createLogger({ level: config.logLevel, service: 'check-worker-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let redis: Redis;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let answeredAt: number[];

  // A target that answers 200 after SLOW_MS: the check is in flight that long.
  const slow: FakeHandler = (_req, res) => {
    setTimeout(() => {
      answeredAt.push(Date.now());
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    }, SLOW_MS);
  };

  beforeAll(async () => {
    bed = await startSchedulerBed('ops-shutdown-test', slow, { reset: false });
    ({ ds, redis, scheduler, target } = bed);
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis();
    answeredAt = [];
    target.requests.length = 0;
  });
  afterAll(async () => {
    await bed?.close();
  });

  const aSlowMonitor = async (): Promise<Monitor> => aMonitor(ds, await aUser(ds), { url: `${target.url}/slow`, timeout: 10 });
  const resultsOf = async (monitorId: number): Promise<{ ok: boolean }[]> =>
    (await ds.query('SELECT ok FROM check_results WHERE monitor_id = $1', [monitorId])) as { ok: boolean }[];

  it('on SIGTERM in the middle of a slow check, finishes it, records exactly one result and exits 0', async () => {
    const worker = startServiceProcess('check-worker', { LOG_LEVEL: 'debug', ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      await waitFor(() => worker.logs.some((l) => l.msg === 'check-worker started'), { timeoutMs: 30_000, what: 'the worker to start' });
      const monitor = await aSlowMonitor();
      await scheduler.checkNow(monitor);
      await waitFor(() => target.requests.length === 1, { what: 'the check to reach the target' });

      const signalledAt = Date.now();
      worker.child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const code = await Promise.race([worker.exited, new Promise<string>((r) => (timer = setTimeout(() => r('still running'), 20_000)))]);
      clearTimeout(timer);
      const exitedAt = Date.now();

      expect(code).toBe(0);
      // It waited for the target's answer instead of dropping the check.
      expect(answeredAt).toHaveLength(1);
      expect(answeredAt[0]).toBeGreaterThan(signalledAt);
      expect(exitedAt).toBeGreaterThanOrEqual(answeredAt[0]);
      expect(await resultsOf(monitor.id)).toEqual([{ ok: true }]);
      // Nothing is left to run the check again.
      expect(await scheduler.queue.getJobCounts('waiting', 'active', 'delayed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        failed: 0,
      });
      expect(target.requests).toHaveLength(1);

      // Structured logs: the shutdown names the job and monitor in flight; the per-check line is debug.
      const stopping = worker.logs.find((l) => l.msg === 'stopping: finishing checks in flight');
      expect(stopping).toMatchObject({
        level: 30,
        service: 'check-worker',
        in_flight: [{ job_id: expect.stringMatching(/^now-/), monitor_id: monitor.id }],
      });
      const finished = worker.logs.find((l) => l.msg === 'check finished');
      expect(finished).toMatchObject({ level: 20, monitor_id: monitor.id, job_id: expect.stringMatching(/^now-/), outcome: 'recorded' });
      expect(worker.logs.filter((l) => l.level === 30 && l.monitor_id !== undefined)).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it('past the grace period, puts the check back in the queue for another worker: still exactly one result', async () => {
    const first = await startCheckWorker({ config, dataSource: ds, logger });
    const monitor = await aSlowMonitor();
    await scheduler.checkNow(monitor);
    await waitFor(() => target.requests.length === 1, { what: 'the check to reach the target' });

    expect(await first.stop({ graceMs: 200 })).toBe('forced');
    // Back in the waiting list at once, and the monitor's check lock is free.
    expect(await scheduler.queue.getJobCounts('waiting', 'active')).toEqual({ waiting: 1, active: 0 });
    expect(await redis.exists(`${config.redis.queuePrefix}:check-lock:${monitor.id}`)).toBe(0);

    const second = await startCheckWorker({ config, dataSource: ds, logger });
    try {
      await waitFor(() => target.requests.length === 2, { what: 'another worker to run the check again' });
      await waitFor(
        async () => (await scheduler.queue.getJobCounts('completed', 'waiting', 'active')).active === 0 && answeredAt.length === 2,
        {
          timeoutMs: 10_000,
          what: 'both probes to end',
        },
      );
      await waitFor(async () => (await resultsOf(monitor.id)).length > 0, { what: 'the result' });
      // Let the abandoned first attempt finish writing, if it does.
      await new Promise((r) => setTimeout(r, 500));
      expect(await resultsOf(monitor.id)).toEqual([{ ok: true }]);
    } finally {
      await second.close();
    }
  });
});
