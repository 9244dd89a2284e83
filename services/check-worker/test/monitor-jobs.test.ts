import { Worker, type Job } from 'bullmq';
import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, isMonitorJobId, MonitorScheduler, offsetOf, type RunCheckJob } from '@uptime/queues';
import { aMonitor, aUser, testConfig, waitFor, type FakeHttpServer } from '@uptime/testing';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import { CHECK_RETRY_DELAY_MS, MonitorJobCycle } from '../src/monitor-job-cycle';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(60_000);

const INTERVAL_S = 2;

/**
 * Each monitor has one job of its own for as long as its schedule (packages/queues/src/monitor-scheduler.ts):
 * after every check the worker sends it back to the delayed set for its next slot.
 */
describe("a monitor's own job", () => {
  const config = testConfig();
  const logger = createLogger({ level: 'silent', service: 'monitor-jobs-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let worker: RunningCheckWorker | undefined;
  /** Paths whose next request is held this long before it is answered. */
  const holdNext = new Map<string, number>();

  beforeAll(async () => {
    bed = await startSchedulerBed('monitor-jobs-test', (req, res) => {
      const path = req.url ?? '/';
      const hold = holdNext.get(path) ?? 0;
      holdNext.delete(path);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }, hold);
    });
    ({ ds, scheduler, target } = bed);
    worker = await startCheckWorker({ config, dataSource: ds, logger });
  });
  afterAll(async () => {
    await worker?.close();
    await bed?.close();
  });

  const slotsOf = async (monitorId: number): Promise<number[]> =>
    ((await ds.query('SELECT scheduled_at FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [monitorId])) as { scheduled_at: Date }[]).map(
      (r) => r.scheduled_at.getTime(),
    );
  const jobsOf = async (monitorId: number): Promise<Job[]> =>
    (await scheduler.queue.getJobs(['active', 'waiting', 'delayed', 'prioritized', 'completed', 'failed'])).filter(
      (j) => (j.data as RunCheckJob).monitorId === monitorId,
    );

  it('checks every slot of the grid with one and the same job', async () => {
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}/steady`, checkInterval: INTERVAL_S });
    await scheduler.schedule(monitor);
    const { jobId } = (await scheduler.scheduleOf(monitor.id))!;

    const slots = await waitFor(async () => ((await slotsOf(monitor.id)).length >= 3 ? slotsOf(monitor.id) : null), {
      timeoutMs: 15_000,
      what: 'three checks',
    });
    const every = INTERVAL_S * 1000;
    for (const [i, slot] of slots.entries()) {
      expect(slot % every).toBe(offsetOf(monitor.id, INTERVAL_S));
      if (i > 0) expect(slot - slots[i - 1]!).toBe(every);
    }
    const schedule = await scheduler.scheduleOf(monitor.id);
    expect(schedule?.jobId).toBe(jobId);
    expect(schedule!.plannedAt).toBeGreaterThan(slots[2]!);
    const jobs = await jobsOf(monitor.id);
    expect(jobs.map((j) => j.id)).toEqual([jobId]);
    expect(await scheduler.queue.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });
  });

  it('ends a job replaced while it runs, and the new job takes over', async () => {
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}/replaced`, checkInterval: INTERVAL_S });
    holdNext.set('/replaced', 2500);
    await scheduler.schedule(monitor);
    const old = (await scheduler.scheduleOf(monitor.id))!.jobId;
    await waitFor(async () => (await scheduler.queue.getJobs(['active'])).some((j) => j.id === old), { timeoutMs: 10_000, what: 'the check to start' });

    // A worker runs the old job: BullMQ cannot remove it, so it must end by itself.
    await scheduler.schedule({ ...monitor, configVersion: 2, checkInterval: 3 });
    const replacement = (await scheduler.scheduleOf(monitor.id))!;
    expect(replacement.jobId).not.toBe(old);
    await waitFor(async () => (await slotsOf(monitor.id)).length >= 2, { timeoutMs: 15_000, what: 'a check by the new job' });
    expect(await scheduler.queue.getJob(old)).toBeUndefined();
    expect((await jobsOf(monitor.id)).map((j) => j.id)).toEqual([replacement.jobId]);
    expect((await scheduler.queue.getJob(replacement.jobId))?.data).toMatchObject({ configVersion: 2, interval: 3 });
  });

  it('ends a job whose monitor was unscheduled while it ran', async () => {
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}/removed`, checkInterval: INTERVAL_S });
    holdNext.set('/removed', 2500);
    await scheduler.schedule(monitor);
    const { jobId } = (await scheduler.scheduleOf(monitor.id))!;
    await waitFor(async () => (await scheduler.queue.getJobs(['active'])).some((j) => j.id === jobId), { timeoutMs: 10_000, what: 'the check to start' });

    await scheduler.unschedule(monitor.id);
    await waitFor(async () => (await slotsOf(monitor.id)).length === 1, { timeoutMs: 10_000, what: 'the running check to finish' });
    await waitFor(async () => (await jobsOf(monitor.id)).length === 0, { timeoutMs: 5_000, what: 'the job to end' });
    const requests = target.requests.filter((r) => r.url === '/removed').length;
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_S * 1000 + 500));
    expect(target.requests.filter((r) => r.url === '/removed')).toHaveLength(requests);
  });
});

/** A failure on our side (Redis, Postgres) never sends a monitor's job to BullMQ's failed set. */
describe('MonitorJobCycle after a failure', () => {
  const config = testConfig();
  const logs: { msg: string; retried?: boolean }[] = [];
  const logger = createLogger({ level: 'warn', service: 'monitor-jobs-test', destination: { write: (line: string) => logs.push(JSON.parse(line)) } });
  let bed: SchedulerBed;
  let worker: Worker | undefined;

  beforeAll(async () => {
    bed = await startSchedulerBed('monitor-jobs-failure-test');
  });
  afterAll(async () => {
    await worker?.close();
    await bed?.close();
  });

  it('retries the same planned time once, a second later, then goes on to the next slot', async () => {
    const monitor = await aMonitor(bed.ds, await aUser(bed.ds), { url: 'https://fails.example/', checkInterval: 60 });
    await bed.scheduler.schedule(monitor);
    const { jobId, plannedAt } = (await bed.scheduler.scheduleOf(monitor.id))!;
    // Due now rather than at its slot, so the test need not wait for it.
    await (await bed.scheduler.queue.getJob(jobId))!.promote();

    const cycle = new MonitorJobCycle(bed.redis, config.redis.queuePrefix, logger);
    const runs: { data: RunCheckJob; at: number }[] = [];
    const connection = createRedisConnection(config.redis.url, 'monitor-jobs-failure-worker');
    worker = new Worker(
      bed.scheduler.queue.name,
      async (job: Job, token?: string) => {
        runs.push({ data: { ...(job.data as RunCheckJob) }, at: Date.now() });
        return cycle.continue(job, token, { failure: new Error('Postgres went away') });
      },
      { connection, prefix: config.redis.queuePrefix },
    );
    await waitFor(() => runs.length >= 2, { timeoutMs: 10_000, what: 'the retry' });
    await waitFor(async () => (await bed.scheduler.scheduleOf(monitor.id))!.plannedAt !== plannedAt, { what: 'the job to move on' });
    await worker.close();
    await connection.quit();

    expect(runs[0]!.data).toMatchObject({ plannedAt });
    expect(runs[0]!.data.retrying).toBeUndefined();
    expect(runs[1]!.data).toMatchObject({ plannedAt, retrying: true });
    expect(runs[1]!.at - runs[0]!.at).toBeGreaterThanOrEqual(CHECK_RETRY_DELAY_MS - 50);
    const after = (await bed.scheduler.scheduleOf(monitor.id))!;
    expect(after.jobId).toBe(jobId);
    expect(after.plannedAt).toBeGreaterThan(Date.now());
    expect(after.plannedAt % 60_000).toBe(offsetOf(monitor.id, 60));
    const job = await bed.scheduler.queue.getJob(jobId);
    expect(await job?.getState()).toBe('delayed');
    expect((job?.data as RunCheckJob).retrying).toBeUndefined();
    expect(await bed.scheduler.queue.getJobCounts('failed')).toEqual({ failed: 0 });
    expect(logs.filter((l) => l.msg === 'check job failed').map((l) => l.retried)).toEqual([true, false]);
    expect(isMonitorJobId(jobId)).toBe(true);
  });
});
