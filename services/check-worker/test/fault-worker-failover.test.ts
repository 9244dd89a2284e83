import type { ServerResponse } from 'node:http';
import type { DataSource } from '@uptime/db';
import type { MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  startServiceProcess,
  waitFor,
  type FakeHttpServer,
  type RecordedRequest,
  type ServiceProcess,
} from '@uptime/testing';
import type { Redis } from 'ioredis';
import { plannedTimeOf } from '../src/run-check.processor';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(240_000);

/** The production floor of a monitor's interval (MIN_CHECK_INTERVAL_SECONDS). */
const PRODUCTION_INTERVAL_S = 30;
/** How late the next slot's check may start after a worker died (docs/reliability.md). */
const NEXT_SLOT_LATENESS_MS = 1000;
/**
 * How far into its check the worker is killed. Before the liveness registry the job came back
 * only once the 15 s check lock had lapsed and BullMQ's stalled check (every 5 s) found it, 16 s
 * after the kill when measured: killed this late, the re-run fell after the next slot and the
 * next slot was skipped. With the registry it comes back about 3 s after the kill, too late to
 * re-run a check with a 25 s timeout before the next slot (docs/reliability.md).
 */
const KILLED_INTO_CHECK_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Check-workers as in production (no CHECK_LOCK_TTL_MS: the 15 s check lock, the 3 s liveness),
 * two of them, so a peer is there to notice one die, as in any deployment that runs more than one
 * (docs/reliability.md, "A check-worker killed mid-check").
 */
describe('a check-worker that dies or stalls mid-check, with a peer running', () => {
  let bed: SchedulerBed;
  let ds: DataSource;
  let redis: Redis;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  const workers: ServiceProcess[] = [];
  /** Per path, how the target answers the n-th request to it (1-based). */
  const answers = new Map<string, (n: number, res: ServerResponse) => void>();
  const seenByPath = new Map<string, number>();

  beforeAll(async () => {
    bed = await startSchedulerBed('fault-worker-failover-test', (req: RecordedRequest, res) => {
      const n = (seenByPath.get(req.url) ?? 0) + 1;
      seenByPath.set(req.url, n);
      const respond = answers.get(req.url);
      if (respond) return respond(n, res);
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    ({ ds, redis, scheduler, target } = bed);
  });
  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGCONT');
    await Promise.all(workers.map((w) => w.stop()));
    await bed?.close();
  });

  const startWorker = async (): Promise<{ process: ServiceProcess; id: string }> => {
    const proc = startServiceProcess('check-worker', { LOG_LEVEL: 'debug', ALLOW_PRIVATE_TARGETS: 'true' });
    workers.push(proc);
    await waitFor(() => proc.logs.some((l) => l.msg === 'check-worker started'), { timeoutMs: 60_000, what: 'the worker to start' });
    const started = proc.logs.find((l) => l.msg === 'check-worker started');
    return { process: proc, id: String(started?.worker_id) };
  };

  /** The running workers' ids mapped to their processes, at least `n` of them started. */
  const running = new Map<string, ServiceProcess>();
  const ensureWorkers = async (n: number): Promise<void> => {
    for (const [id, p] of running) if (p.child.exitCode !== null || p.child.signalCode !== null) running.delete(id);
    const starting: Promise<{ process: ServiceProcess; id: string }>[] = [];
    for (let i = running.size; i < n; i += 1) starting.push(startWorker());
    for (const { process, id } of await Promise.all(starting)) running.set(id, process);
  };

  /** The monitor's job while a worker runs it, the worker that runs it, and the slot it checks. */
  const activeCheckOf = async (monitorId: number): Promise<{ owner: ServiceProcess; ownerId: string; slot: number }> => {
    const active = (await scheduler.queue.getJobs(['active'])).find((j) => j.data.monitorId === monitorId);
    if (!active?.id) throw new Error(`no active job of monitor ${monitorId}`);
    const token = await redis.get(`${scheduler.queue.toKey(active.id)}:lock`);
    const ownerId = token?.split(':')[0] ?? '';
    const owner = running.get(ownerId);
    if (!owner) throw new Error(`the job's lock ${token} names no worker started here`);
    return { owner, ownerId, slot: plannedTimeOf(active).getTime() };
  };

  const resultsOf = async (monitorId: number) =>
    (
      (await ds.query('SELECT scheduled_at, ok, response_time FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [
        monitorId,
      ])) as {
        scheduled_at: Date;
        ok: boolean;
        response_time: number | null;
      }[]
    ).map((r) => ({ slot: r.scheduled_at.getTime(), ok: r.ok, responseTime: r.response_time }));
  const slotsOf = async (monitorId: number) => (await resultsOf(monitorId)).map(({ slot, ok }) => ({ slot, ok }));

  const jobsOf = async (monitorId: number) =>
    (await scheduler.queue.getJobs(['active', 'waiting', 'delayed', 'prioritized'])).filter((j) => j.data.monitorId === monitorId);

  const notCheckedOf = async (monitorId: number) =>
    (
      (await ds.query('SELECT started_at, ended_at FROM no_data_spans WHERE monitor_id = $1 ORDER BY started_at', [monitorId])) as {
        started_at: Date;
        ended_at: Date;
      }[]
    ).map((r) => ({ from: r.started_at.getTime(), to: r.ended_at.getTime() }));

  it('records the slot of a check killed too late to re-run as not checked and starts the next slot at most 1 s after its planned time', async () => {
    await ensureWorkers(2);
    const path = '/hangs-once';
    // The first check hangs (the one in flight when its worker dies); later ones answer.
    answers.set(path, (n, res) => {
      if (n === 1) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    // A 25 s timeout: a re-run taken back 15 s into the slot could run 10 s past the next slot.
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}${path}`, checkInterval: PRODUCTION_INTERVAL_S, timeout: 25 });
    await scheduler.schedule(monitor);
    const requests = () => target.requests.filter((r) => r.url === path);
    await waitFor(() => requests().length === 1, {
      timeoutMs: (PRODUCTION_INTERVAL_S + 10) * 1000,
      what: 'the first check to reach the target',
    });
    const { owner, ownerId, slot: killedSlot } = await activeCheckOf(monitor.id);
    await sleep(killedSlot + KILLED_INTO_CHECK_MS - Date.now());

    const killedAt = Date.now();
    owner.child.kill('SIGKILL');
    expect(await owner.exited).toBeNull();

    const nextSlot = killedSlot + PRODUCTION_INTERVAL_S * 1000;
    await waitFor(async () => (await resultsOf(monitor.id)).some((r) => r.slot === nextSlot), {
      timeoutMs: nextSlot - Date.now() + 20_000,
      what: 'a result for the slot after the killed check',
    });
    const peerLogs = [...running.entries()].filter(([id]) => id !== ownerId).flatMap(([, w]) => w.logs);
    const givenUp = peerLogs.find(
      (l) => l.monitor_id === monitor.id && l.msg === 'taken-back check too late to re-run; slot recorded as not checked',
    );
    expect(givenUp).toBeDefined();
    // The killed check was not run again: the next request to the target is the next slot's, on time.
    const [, next, ...later] = requests();
    const measured = { givenUpAfterKillMs: Date.parse(String(givenUp!.time)) - killedAt, nextSlotLatenessMs: next!.receivedAt - nextSlot };
    process.stdout.write(`fault-worker-failover: killed ${killedAt - killedSlot} ms into its slot; ${JSON.stringify(measured)}\n`);
    expect(later.filter((r) => r.receivedAt < nextSlot + 5000)).toEqual([]);
    expect(next!.receivedAt).toBeGreaterThanOrEqual(nextSlot);
    expect(measured.nextSlotLatenessMs).toBeLessThanOrEqual(NEXT_SLOT_LATENESS_MS);
    // The killed slot is not checked: no result (no downtime), one no-data span, no status change.
    expect(await slotsOf(monitor.id)).toEqual([{ slot: nextSlot, ok: true }]);
    expect(await notCheckedOf(monitor.id)).toEqual([{ from: killedSlot, to: nextSlot }]);
    const events = (await ds.query('SELECT to_status FROM status_events WHERE monitor_id = $1', [monitor.id])) as { to_status: string }[];
    expect(events.filter((e) => e.to_status === 'down')).toEqual([]);
    const [{ status }] = (await ds.query('SELECT status FROM monitors WHERE id = $1', [monitor.id])) as [{ status: string }];
    expect(status).not.toBe('down');
    expect(await jobsOf(monitor.id)).toHaveLength(1);
  });

  /**
   * A monitor every `interval` s whose target answers in `answerMs`, once a worker runs its first
   * check: its planned slots from that one on, its requests at the target, and that worker.
   */
  const aSlowMonitorInCheck = async (path: string, answerMs: number, interval: number, timeout = 8) => {
    await ensureWorkers(2);
    answers.set(path, (_n, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }, answerMs);
    });
    const monitor = await aMonitor(ds, await aUser(ds), { url: `${target.url}${path}`, checkInterval: interval, timeout });
    await scheduler.schedule(monitor);
    const requests = () => target.requests.filter((r) => r.url === path);
    await waitFor(() => requests().length === 1, { timeoutMs: (interval + 10) * 1000, what: 'the first check to reach the target' });
    const { owner, ownerId, slot } = await activeCheckOf(monitor.id);
    const slots = [0, 1, 2].map((n) => slot + n * interval * 1000) as [number, number, number];
    return { monitor, requests, owner, ownerId, slots };
  };

  /** Waits for the result of the last of `slots`; returns the results up to it. */
  const resultsUpTo = async (monitorId: number, slots: [number, number, number]) => {
    await waitFor(async () => (await resultsOf(monitorId)).some((r) => r.slot === slots[2]), {
      timeoutMs: slots[2] - Date.now() + 30_000,
      what: 'results for two slots after the stalled check',
    });
    return (await resultsOf(monitorId)).filter((r) => r.slot <= slots[2]);
  };

  it('checks a monitor once per slot when its worker stalls for 2 s mid-check (SIGSTOP, SIGCONT)', async () => {
    // Every check takes 3 s, so the stall falls inside one.
    const { monitor, requests, owner, ownerId, slots } = await aSlowMonitorInCheck('/answers-in-3s', 3000, 10);

    owner.child.kill('SIGSTOP');
    await sleep(2000);
    owner.child.kill('SIGCONT');

    const results = await resultsUpTo(monitor.id, slots);
    // Nobody took the check back: one request per slot, one result per slot, one job.
    expect(results.map(({ slot, ok }) => ({ slot, ok }))).toEqual(slots.map((slot) => ({ slot, ok: true })));
    expect(requests().filter((r) => r.receivedAt < slots[2] + 5000)).toHaveLength(3);
    expect(await jobsOf(monitor.id)).toHaveLength(1);
    const tookBack = [...running.values()].flatMap((w) => w.logs).filter((l) => l.dead_worker_id === ownerId);
    expect(tookBack).toEqual([]);
  });

  it('takes back the check of a worker stalled past its liveness, discards its late result and keeps one result per slot', async () => {
    // Taken back about 4 s into a 15 s slot, a check of at most 5 s still ends before the next
    // slot, so it is re-run rather than given up (stale-rerun.ts).
    const { monitor, requests, owner, ownerId, slots } = await aSlowMonitorInCheck('/answers-in-2s', 2000, 15, 5);

    // Past the 3 s liveness: the peer takes the check back and runs it again meanwhile.
    const stoppedAt = Date.now();
    owner.child.kill('SIGSTOP');
    await sleep(5000);
    owner.child.kill('SIGCONT');

    const results = await resultsUpTo(monitor.id, slots);
    const peerLogs = [...running.entries()].filter(([id]) => id !== ownerId).flatMap(([, w]) => w.logs);
    expect(peerLogs.some((l) => l.dead_worker_id === ownerId && l.msg === 'checks of a dead check-worker put back in the queue')).toBe(
      true,
    );
    expect(owner.logs.some((l) => l.msg === 'declared dead by the other check-workers; abandoning the checks in flight')).toBe(true);
    expect(results.map(({ slot, ok }) => ({ slot, ok }))).toEqual(slots.map((slot) => ({ slot, ok: true })));
    // The stalled worker's own measure of the slot (its 2 s answer plus the 5 s stall) was
    // discarded; the peer's re-run is the slot's one result.
    expect(results[0]!.responseTime).toBeLessThan(5000);
    const taken = requests().filter((r) => r.receivedAt >= stoppedAt && r.receivedAt < slots[1]);
    expect(taken).toHaveLength(1);
    expect(taken[0]!.receivedAt - stoppedAt).toBeLessThanOrEqual(5000);
    const next = requests().find((r) => r.receivedAt >= slots[1]);
    expect(next!.receivedAt - slots[1]).toBeLessThanOrEqual(NEXT_SLOT_LATENESS_MS);
    expect(await jobsOf(monitor.id)).toHaveLength(1);
  });
});
