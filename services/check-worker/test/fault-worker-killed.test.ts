import type { DataSource } from '@uptime/db';
import { MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  startServiceProcess,
  waitFor,
  type FakeHttpServer,
  type ServiceProcess,
} from '@uptime/testing';
import { plannedTimeOf } from '../src/run-check.processor';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(120_000);

/**
 * The production lock (15 s) against the production floor (30 s), scaled down so the test
 * takes seconds: the lock still lives well under the interval, and well over its 1 s renewal.
 * The monitor's job comes back from the dead worker within about 1.7 lock lives (5 s here, 25 s
 * in production: check-worker.ts), and here, unlike in production, no other worker is running
 * yet: the interval also covers the second worker's start (a few seconds on a loaded machine).
 */
const LOCK_TTL_MS = 3_000;
const INTERVAL_S = 12;

/**
 * A check-worker process killed with SIGKILL in the middle of a check leaves its per-monitor
 * lock behind. The lock is short and renewed only by a live owner, so another worker checks the
 * monitor at its very next slot instead of skipping slots until a long lock expires.
 */
describe('a check-worker killed mid-check', () => {
  let bed: SchedulerBed;
  let ds: DataSource;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    let seen = 0;
    // The first request hangs (the check in flight when the worker dies); later ones answer.
    bed = await startSchedulerBed('fault-worker-killed-test', (_req, res) => {
      seen += 1;
      if (seen === 1) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    ({ ds, scheduler, target } = bed);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await bed?.close();
  });

  const startWorker = async (): Promise<ServiceProcess> => {
    const worker = startServiceProcess('check-worker', { LOG_LEVEL: 'debug', ALLOW_PRIVATE_TARGETS: 'true', CHECK_LOCK_TTL_MS: String(LOCK_TTL_MS) });
    workers.push(worker);
    await waitFor(() => worker.logs.some((l) => l.msg === 'check-worker started'), { timeoutMs: 30_000, what: 'the worker to start' });
    return worker;
  };

  it('checks the monitor again at its next slot', async () => {
    const first = await startWorker();
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}/hangs-once`, checkInterval: INTERVAL_S, timeout: 15 });
    await scheduler.schedule(monitor);
    await waitFor(() => target.requests.length === 1, { timeoutMs: (INTERVAL_S + 10) * 1000, what: 'the first scheduled check to reach the target' });
    const [active] = await scheduler.queue.getJobs(['active']);
    expect(active?.data.monitorId).toBe(monitor.id);
    const killedSlot = plannedTimeOf(active!).getTime();

    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    await startWorker();

    const nextSlot = new Date(killedSlot + INTERVAL_S * 1000);
    const resultAt = async (slot: Date) =>
      ((await ds.query('SELECT ok FROM check_results WHERE monitor_id = $1 AND scheduled_at = $2', [monitor.id, slot])) as { ok: boolean }[])[0];
    await waitFor(async () => (await resultAt(nextSlot)) !== undefined, {
      timeoutMs: (INTERVAL_S + 15) * 1000,
      what: 'a result for the slot after the killed check',
    });
    expect(await resultAt(nextSlot)).toEqual({ ok: true });
  });
});
