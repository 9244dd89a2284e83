import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  sleep,
  testConfig,
  waitFor,
  type FakeHttpServer,
} from '@uptime/testing';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(60_000);

const STOPPED_MS = 5_000;

/** Every worker stopped for a while: the monitor's history gets a "no data" span for that time. */
describe('all check-workers stopped for more than two intervals', () => {
  const config = testConfig();
  const logger = createLogger({ level: config.logLevel, service: 'fault-workers-stopped-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let worker: RunningCheckWorker | undefined;

  beforeAll(async () => {
    bed = await startSchedulerBed('fault-workers-stopped-test');
    ({ ds, scheduler, target } = bed);
  });
  afterAll(async () => {
    await worker?.close();
    await bed?.close();
  });

  const checkTimes = async (monitorId: number): Promise<number[]> =>
    ((await ds.query(`SELECT scheduled_at + start_lag_ms * interval '1 millisecond' AS at FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at`, [monitorId])) as {
      at: Date;
    }[]).map((r) => r.at.getTime());

  it('records the unchecked time once checks resume, and nothing while checks run on time', async () => {
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}/`, checkInterval: 1, timeout: 5 });
    worker = await startCheckWorker({ config, dataSource: ds, logger });
    await scheduler.schedule(monitor);
    await waitFor(async () => (await checkTimes(monitor.id)).length >= 4, { timeoutMs: 20_000, what: 'checks on schedule' });
    await worker.close();
    worker = undefined;
    const before = await checkTimes(monitor.id);
    const lastBefore = before[before.length - 1]!;

    await sleep(STOPPED_MS);
    worker = await startCheckWorker({ config, dataSource: ds, logger });
    const span = await waitFor(
      async () => ((await ds.query('SELECT started_at, ended_at FROM no_data_spans WHERE monitor_id = $1', [monitor.id])) as { started_at: Date; ended_at: Date }[])[0],
      { timeoutMs: 15_000, what: 'a no-data span' },
    );
    const firstAfter = (await checkTimes(monitor.id)).find((t) => t > lastBefore)!;
    expect(span.started_at.getTime()).toBe(lastBefore + 1_000);
    expect(span.ended_at.getTime()).toBe(firstAfter);
    expect(firstAfter - lastBefore).toBeGreaterThanOrEqual(STOPPED_MS);

    // Back on schedule: the next checks open no other span.
    await waitFor(async () => (await checkTimes(monitor.id)).filter((t) => t > firstAfter).length >= 3, { timeoutMs: 15_000, what: 'checks after the restart' });
    const [{ spans }] = await ds.query('SELECT count(*)::int AS spans FROM no_data_spans WHERE monitor_id = $1', [monitor.id]);
    expect(spans).toBe(1);
  });
});
