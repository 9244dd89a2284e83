import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { checkConfigOf, expandCheck, MonitorScheduler, type RunCheckJob } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  testConfig,
  waitFor,
  type FakeHttpServer,
} from '@uptime/testing';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

/**
 * Job templates leave out the fields at their usual values (packages/queues/src/compact-check.ts)
 * to halve Redis's memory per monitor: a monitor that sets every field must still be probed with
 * every one of them.
 */
describe('compact job templates', () => {
  const config = testConfig();
  const logger = createLogger({ level: 'silent', service: 'compact-template-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let worker: RunningCheckWorker | undefined;

  beforeAll(async () => {
    bed = await startSchedulerBed('compact-template-test', (_req, res) => {
      res.writeHead(418, { 'content-type': 'text/plain' });
      res.end('pong, all fine');
    });
    ({ ds, scheduler, target } = bed);
  });
  afterAll(async () => {
    await worker?.close();
    await bed?.close();
  });

  it('stores only what differs from the usual values and probes with the whole configuration', async () => {
    const monitor = await aMonitor(ds, await aUser(ds), {
      url: `${target.url}/api`,
      method: 'POST',
      headers: { 'x-probe': 'compact' },
      body: '{"ping":true}',
      timeout: 5,
      followRedirects: false,
      verifySsl: false,
      expectedStatus: [418],
      expectedContent: 'pong',
      excludedContent: 'error',
      retryCount: 1,
      checkInterval: 300,
    });
    const usual = await aMonitor(ds, await aUser(ds), { url: `${target.url}/usual`, timeout: 30 });
    await scheduler.schedule(monitor);
    await scheduler.schedule(usual);

    const templateOf = async (id: number): Promise<RunCheckJob> =>
      (await scheduler.scheduleOf(id))?.template as RunCheckJob;
    expect((await templateOf(usual.id)).check).toEqual({ url: usual.url, timeout: 30 });
    expect(expandCheck((await templateOf(monitor.id)).check)).toEqual(checkConfigOf(monitor));

    worker = await startCheckWorker({ config, dataSource: ds, logger });
    await scheduler.checkNow(monitor);
    const [request] = await waitFor(() => (target.requests.length > 0 ? target.requests : null), { what: 'the probe' });
    expect(request).toMatchObject({ method: 'POST', url: '/api', body: '{"ping":true}' });
    expect(request.headers['x-probe']).toBe('compact');
    // 418 is up only because the expected status travelled with the job.
    const [result] = await waitFor(
      async () => {
        const rows = (await ds.query('SELECT ok FROM check_results WHERE monitor_id = $1', [monitor.id])) as { ok: boolean }[];
        return rows.length > 0 ? rows : null;
      },
      { what: 'the result' },
    );
    expect(result.ok).toBe(true);
  });
});
