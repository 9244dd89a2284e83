import { Monitor, type DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { MonitorScheduler } from '@uptime/queues';
import {
  aUser,
  resetDatabase,
  resetRedis,
  testConfig,
  waitFor,
  type FakeHandler,
  type FakeHttpServer,
} from '@uptime/testing';
import { INITIAL_CONCURRENCY } from '../src/adaptive-concurrency';
import { startCheckWorker, type RunningCheckWorker } from '../src/check-worker';
import { startSchedulerBed, type SchedulerBed } from './support/scheduler-bed';

jest.setTimeout(120_000);

/**
 * Real jobs through a real worker against local targets: its concurrency grows while checks wait
 * for a slot, and never passes CHECK_CONCURRENCY, however long the targets take.
 */
describe('check-worker adaptive concurrency', () => {
  const logger = createLogger({ level: 'silent', service: 'adaptive-concurrency-test' });
  let bed: SchedulerBed;
  let ds: DataSource;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  let worker: RunningCheckWorker | undefined;
  let open = 0;
  let peakOpen = 0;
  let answered = 0;
  /** Requests held open at once before the first answer went out. */
  let peakBeforeFirstAnswer = 0;

  /** Answers 200 after `ms`, counting the requests it holds open at once. */
  const after =
    (ms: number): FakeHandler =>
    (_req, res) => {
      open += 1;
      peakOpen = Math.max(peakOpen, open);
      if (answered === 0) peakBeforeFirstAnswer = peakOpen;
      setTimeout(() => {
        open -= 1;
        answered += 1;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }, ms);
    };

  beforeAll(async () => {
    bed = await startSchedulerBed('adaptive-concurrency-test', undefined, { reset: false });
    ({ ds, scheduler, target } = bed);
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis();
    open = peakOpen = answered = peakBeforeFirstAnswer = 0;
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });
  afterAll(async () => {
    await bed?.close();
  });

  /** `count` monitors of the target, each with one check queued now; resolves with their ids. */
  async function queueChecks(count: number): Promise<number[]> {
    const owner = await aUser(ds);
    const repo = ds.getRepository(Monitor);
    const rows = Array.from({ length: count }, (_, i) =>
      repo.create({
        ownerId: owner.id,
        name: `m${i}`,
        url: `${target.url}/m/${i}`,
        type: 'http',
        method: 'GET',
        headers: {},
        expectedStatus: [],
        timeout: 10,
        checkInterval: 300,
      }),
    );
    const monitors = await repo.save(rows, { chunk: 500 });
    await Promise.all(monitors.map((m) => scheduler.checkNow(m)));
    return monitors.map((m) => m.id);
  }

  /** Runs until every monitor has its one result, sampling the worker's concurrency meanwhile. */
  async function runAll(ids: number[], checkConcurrency: number): Promise<number[]> {
    worker = await startCheckWorker({
      config: testConfig({ CHECK_CONCURRENCY: String(checkConcurrency) }),
      dataSource: ds,
      logger,
      concurrencyPeriodMs: 100,
    });
    const running = worker;
    const seen: number[] = [running.worker.concurrency];
    const sampler = setInterval(() => seen.push(running.worker.concurrency), 10);
    try {
      await waitFor(
        async () => {
          const [{ n }] = (await ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = ANY($1)', [ids])) as {
            n: number;
          }[];
          return n === ids.length;
        },
        { timeoutMs: 90_000, intervalMs: 100, what: 'every check to be recorded' },
      );
    } finally {
      clearInterval(sampler);
    }
    const [{ checks, monitors }] = (await ds.query(
      'SELECT count(*)::int AS checks, count(DISTINCT monitor_id)::int AS monitors FROM check_results WHERE monitor_id = ANY($1)',
      [ids],
    )) as { checks: number; monitors: number }[];
    expect({ checks, monitors }).toEqual({ checks: ids.length, monitors: ids.length });
    return seen;
  }

  it('rises above its starting point while fast checks wait for a slot', async () => {
    // Targets that answer in 50 ms: each check holds its slot ~0.15 s with the batch commit.
    target.respond(after(50));
    const ids = await queueChecks(1500);
    const seen = await runAll(ids, 1000);
    expect(seen[0]).toBe(INITIAL_CONCURRENCY);
    expect(Math.max(...seen)).toBeGreaterThanOrEqual(2 * INITIAL_CONCURRENCY);
    expect(Math.max(...seen)).toBeLessThanOrEqual(1000);
  });

  it('stays within CHECK_CONCURRENCY under slow targets, holding no more requests open than that', async () => {
    target.respond(after(1500));
    const ids = await queueChecks(400);
    const seen = await runAll(ids, 120);
    // It reached the bound (the backlog asked for more) and never passed it, at the worker or the target.
    expect(Math.max(...seen)).toBe(120);
    expect(peakOpen).toBeGreaterThan(INITIAL_CONCURRENCY);
    expect(peakOpen).toBeLessThanOrEqual(120);
  });

  it('takes more checks while every slot is held, without waiting for one to end', async () => {
    // Targets slower than the whole ramp: BullMQ alone would wait for the first answer. What is
    // asked once the first answer went out (the backlog beyond the bound) is answered at once:
    // what this test measures is over by then, and a second 8 s round would only add wall time.
    const slow = after(8000);
    const fast = after(0);
    target.respond((req, res) => (answered === 0 ? slow(req, res) : fast(req, res)));
    const ids = await queueChecks(250);
    const seen = await runAll(ids, 200);
    expect(Math.max(...seen)).toBe(200);
    expect(peakBeforeFirstAnswer).toBe(200);
  });
});
