import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import {
  closeRedis,
  createServiceMetrics,
  SHUTDOWN_GRACE_MS,
  stopWithin,
  type ReadinessDetails,
  type ServiceMetrics,
  type StopOutcome,
} from '@uptime/observability';
import { IcmpUnavailableError, isProbedType, runProbe, systemPinger, type PingBackend, type Pinger, type ProbedType } from '@uptime/probe';
import {
  createQueueWorker,
  createRedisConnection,
  expandCheck,
  HeartbeatDeadlines,
  isMonitorJobId,
  JobName,
  openQueue,
  parseRunCheckJob,
  QueueName,
  type RunCheckJob,
} from '@uptime/queues';
import { HeartbeatEngine } from './heartbeat/heartbeat-engine';
import { startHeartbeatLoop } from './heartbeat/heartbeat-loop';
import { AdaptiveConcurrency } from './adaptive-concurrency';
import { createAgentChecks } from './agent-checks';
import { announceIcmpAccess } from './icmp-access';
import { startCheckLagReporter, type CheckLagReporter } from './check-lag';
import { meteredRecord } from './check-metrics';
import { CHECK_LOCK_TTL_MS, CheckLock } from './check-lock';
import { InFlightChecks, REQUEUED_AT_STOP_MESSAGE } from './in-flight-checks';
import type { CheckOutcome } from './check-outcome';
import { recordCheckBatch } from './record-check-batch';
import { RESULT_WRITE_DEADLINE_MS, ResultBacklog } from './result-backlog';
import { ResultBatcher } from './result-batcher';
import { CHECK_FAILED_MESSAGE, MonitorJobCycle } from './monitor-job-cycle';
import { createRunCheckProcessor, type RunCheckOutcome } from './run-check.processor';
import { setWorkerConcurrency } from './worker-concurrency';
import { StatusEventPublisher } from './status-event-publisher';
import { LivePublisher } from './live-publisher';
import { WorkerLiveness } from './worker-liveness';
import { insertNotCheckedSlot } from './check-batch.repository';
import { slotTooLateToRerun, type SkippedSlot } from './stale-rerun';
import { reapDeadWorker } from './dead-worker-reaper';

/**
 * How BullMQ finds the check jobs of a worker that died (kill -9, OOM) when its peers did not take
 * them back first (worker-liveness.ts does within about 3.5 s; this is the fallback when no peer
 * was running, or the one that took them back died too). A monitor's job is the
 * only one it has (monitor-job-cycle.ts), so it must come back before the monitor's next slot:
 * its lock lives as long as the monitor's check lock and the stalled check runs every third of
 * that, so the job is back in the queue within about 1.7 lock lives (25 s at the default 15 s,
 * under the 30 s minimum interval), and runs the check it was running, late, for its planned
 * time. BullMQ counts a job's stalls over its whole life and fails it past the limit: so no
 * limit here.
 */
function stallHandling(lockTtlMs: number): { lockDuration: number; stalledInterval: number; maxStalledCount: number } {
  return { lockDuration: lockTtlMs, stalledInterval: Math.max(1000, Math.floor(lockTtlMs / 3)), maxStalledCount: 1_000_000 };
}

export interface CheckWorkerDeps {
  config: Config;
  dataSource: DataSource;
  logger: Logger;
  /** The process's metrics; by default a registry of its own (tests, embedding). */
  metrics?: ServiceMetrics;
  /** How often the worker publishes its check figures for GET /dashboard (default 5 s; tests go faster). */
  checkStatsPublishMs?: number;
  /** How often the worker resizes its concurrency from what it measured (default 1 s; tests go faster). */
  concurrencyPeriodMs?: number;
  /** Where `/readyz` shows the worker's ICMP access (runService's health listener). */
  readiness?: ReadinessDetails;
  /**
   * How ping checks run iputils `ping` when the worker uses it (PING_BACKEND; default: from the
   * PATH; tests run it in a network namespace).
   */
  pinger?: Pinger;
}

export interface RunningCheckWorker {
  worker: Worker;
  publisher: StatusEventPublisher;
  /**
   * Stops taking jobs and waits for the checks in flight and their writes, at most `graceMs`
   * (default 30 s); past that, puts the unfinished checks back in the queue and drops the
   * connections ('forced'). Never closes the data source, which the caller owns.
   */
  stop(options?: { graceMs?: number }): Promise<StopOutcome>;
  /** `stop()` with the default grace period. */
  close(): Promise<void>;
}

/** The path of a finished check to Postgres: batched, buffered in Redis while Postgres is away, events published after commit. */
function startResultPath({ config, dataSource, logger }: CheckWorkerDeps, commands: Redis) {
  const prefix = config.redis.queuePrefix;
  const publisher = new StatusEventPublisher(dataSource, commands, prefix, logger);
  const live = new LivePublisher(dataSource, commands, prefix, logger);
  const backlog = new ResultBacklog({
    write: async (outcomes, watch) => {
      const events = await recordCheckBatch(dataSource, outcomes, { statementTimeoutMs: RESULT_WRITE_DEADLINE_MS, watch });
      // Published after commit; if this fails the outbox sweep publishes them later.
      await publisher.publish(events).catch((err: unknown) => logger.warn({ err }, 'status events left for the sweep'));
      await live.publishQuietly(outcomes, events);
    },
    redis: commands,
    key: `${prefix}:result-backlog`,
    bounds: config.resultBuffer,
    logger,
  });
  const batcher = new ResultBatcher<CheckOutcome>((outcomes) => backlog.record(outcomes));
  return { publisher, live, backlog, batcher };
}

/** The `run-check` handler: the job's lag observed, a concurrency slot held, the check tracked while in flight. */
function runCheckHandler(
  { config, dataSource, logger }: CheckWorkerDeps,
  metrics: ServiceMetrics,
  {
    lag,
    slots,
    inFlight,
    batcher,
    cycle,
    pinger,
    isStillOwned,
  }: {
    lag: CheckLagReporter;
    slots: AdaptiveConcurrency;
    inFlight: InFlightChecks;
    batcher: ResultBatcher<CheckOutcome>;
    cycle: MonitorJobCycle;
    pinger: PingBackend;
    isStillOwned: (job: Job) => Promise<boolean>;
  },
): (job: Job, token?: string) => Promise<unknown> {
  const runCheck = createRunCheckProcessor({
    probe: runProbe,
    probeOptions: { allowPrivateTargets: config.allowPrivateTargets, pinger },
    lock: inFlight.lock,
    record: meteredRecord(metrics, (outcome) => batcher.add(outcome)),
    isStillOwned,
    logger,
    agents: createAgentChecks({
      ds: dataSource,
      allowPrivateTargets: config.allowPrivateTargets,
      localLocation: config.checkLocation,
      logger,
    }),
  });
  return async (job, token) => {
    if (isMonitorJobId(job.id)) await cycle.holdUntilDue(job, token);
    const started = Date.now();
    lag.observe(job, started);
    if (isMonitorJobId(job.id)) {
      const given = rerunToGiveUp(job, started);
      if (given) return cycle.continue(job, token, { outcome: await giveUpSlot(dataSource, logger, metrics, job, given) });
    }
    const run = slots.hold(() => inFlight.track(job, token, () => runCheck(job)));
    const finished = (outcome: RunCheckOutcome): void => {
      if (outcome === 'skipped') metrics.checks.inc({ result: 'skipped', type: checkTypeOf(job.data) });
      logger.debug(
        { job_id: job.id, monitor_id: (job.data as { monitorId?: number }).monitorId, outcome, duration_ms: Date.now() - started },
        'check finished',
      );
    };
    if (!isMonitorJobId(job.id)) {
      const outcome = await run.catch((failure: unknown) => {
        if (inFlight.isAbandoned(job)) throw cycle.leftToPeers(job);
        throw failure;
      });
      if (inFlight.isAbandoned(job)) throw cycle.leftToPeers(job);
      finished(outcome);
      return outcome;
    }
    // A monitor's own job goes on to its next slot whatever happened (monitor-job-cycle.ts).
    const ran = await run.then(
      (outcome) => {
        finished(outcome);
        return { outcome };
      },
      (failure: unknown) => {
        // A ping check this worker cannot send: given back (monitor-job-cycle.ts), nothing recorded.
        if (failure instanceof IcmpUnavailableError) metrics.checks.inc({ result: 'not_checked', type: 'ping' });
        return { failure };
      },
    );
    // Taken back by the peers while this process stalled: theirs to run and advance.
    if (inFlight.isAbandoned(job)) throw cycle.leftToPeers(job);
    // Throws DelayedError once the job waits for its next slot.
    return cycle.continue(job, token, ran);
  };
}

/** The slot to give up when the job is a re-run too late to run (stale-rerun.ts). */
function rerunToGiveUp(job: Job, now: number): SkippedSlot | undefined {
  try {
    return slotTooLateToRerun(job as Job<RunCheckJob>, () => expandCheck(parseRunCheckJob(job.data).check), now);
  } catch {
    // Invalid data is left to the check, which fails it as it always did.
    return undefined;
  }
}

/**
 * Records the slot of a re-run given up (stale-rerun.ts) as not checked instead of running it, so
 * the next slot starts on time (docs/reliability.md). A failed write is logged, not retried: the
 * next slot must not wait for it, and the slot then only lacks its record.
 */
async function giveUpSlot(ds: DataSource, logger: Logger, metrics: ServiceMetrics, job: Job, slot: SkippedSlot): Promise<'not checked'> {
  const { monitorId } = job.data as RunCheckJob;
  const span = { monitorId, startedAt: new Date(slot.plannedAt), endedAt: new Date(slot.nextPlannedAt) };
  await insertNotCheckedSlot(ds, span).catch((err: unknown) =>
    logger.warn({ err, job_id: job.id, monitor_id: monitorId }, 'slot given up but not recorded as not checked'),
  );
  metrics.checks.inc({ result: 'not_checked', type: checkTypeOf(job.data) });
  logger.info(
    { job_id: job.id, monitor_id: monitorId, planned_at: slot.plannedAt, next_planned_at: slot.nextPlannedAt },
    'taken-back check too late to re-run; slot recorded as not checked',
  );
  return 'not checked';
}

/**
 * A check-worker on an open database: consumes `run-check` jobs with as many probes in flight as
 * its measured load needs (at most CHECK_CONCURRENCY: adaptive-concurrency.ts), records results
 * in batches and publishes status changes. Any number may run.
 */
export async function startCheckWorker(deps: CheckWorkerDeps): Promise<RunningCheckWorker> {
  const { config, logger, metrics = createServiceMetrics(), checkStatsPublishMs, concurrencyPeriodMs = 1000 } = deps;
  const prefix = config.redis.queuePrefix;
  const commands: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker');
  const { publisher, live, backlog, batcher } = startResultPath(deps, commands);
  const icmp = await announceIcmpAccess({ mode: config.pingBackend, pinger: deps.pinger ?? systemPinger, logger, metrics, readiness: deps.readiness });
  const lag = startCheckLagReporter({ metrics, redis: commands, prefix, logger, publishEveryMs: checkStatsPublishMs });
  const slots = new AdaptiveConcurrency(config.checkConcurrency);
  const inFlight = new InFlightChecks(new CheckLock(commands, prefix, config.checkLockTtlMs), commands);
  // Read on each scrape for queue_jobs{queue="checks"}, which the worker autoscaler follows.
  const queue = openQueue(QueueName.checks, { connection: commands, prefix });
  const liveness = new WorkerLiveness(
    commands,
    prefix,
    {
      reap: async (deadId) => {
        await reapDeadWorker({ queue, redis: commands, lock: inFlight.lock }, deadId, logger);
      },
      abandon: async () => {
        logger.warn({ abandoned: await inFlight.abandon() }, 'checks in flight given up: the other workers run them again');
      },
    },
    logger,
    config.checkWorkerLivenessTtlMs,
  );
  const isStillOwned = async (job: Job): Promise<boolean> => {
    await liveness.confirm();
    return !inFlight.isAbandoned(job);
  };
  // BullMQ does not close connections it is handed; close() below quits this one.
  const blocking: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker-blocking');
  // Heartbeats (docs/heartbeats.md): stepped in batches by the loop below, their verdicts recorded
  // by the checks' result path in the transaction that steps them, published as checks' are.
  const heartbeats = new HeartbeatEngine({
    ds: deps.dataSource,
    deadlines: new HeartbeatDeadlines(commands, prefix),
    statementTimeoutMs: RESULT_WRITE_DEADLINE_MS,
    published: async (events, outcomes) => {
      await publisher.publish(events).catch((err: unknown) => logger.warn({ err }, 'status events left for the sweep'));
      await live.publishQuietly(outcomes, events);
    },
    metrics,
  });
  const worker = createQueueWorker(
    QueueName.checks,
    {
      [JobName.runCheck]: runCheckHandler(deps, metrics, {
        lag,
        slots,
        inFlight,
        batcher,
        cycle: new MonitorJobCycle(commands, prefix, logger),
        pinger: icmp.backend,
        isStillOwned,
      }),
      // Queued by an API of an earlier version: its ping is in the inbox (migration
      // 1796520300000), which the heartbeat loop steps; the job has nothing left to do.
      [JobName.heartbeatPing]: async () => 'stepped from the inbox',
    },
    { connection: blocking, prefix, concurrency: slots.current, ...stallHandling(config.checkLockTtlMs ?? CHECK_LOCK_TTL_MS) },
  );
  worker.on('failed', (job, err) =>
    logger.warn({ err, job_id: job?.id, monitor_id: (job?.data as { monitorId?: number } | undefined)?.monitorId }, CHECK_FAILED_MESSAGE),
  );
  worker.on('error', (err) => logger.error({ err }, 'check worker error'));
  // The lock tokens name the worker, as BullMQ's job lock tokens do: a peer finds both by its id.
  // Set before the worker's first job, which it takes no sooner than a turn of the event loop.
  inFlight.lock.ownBy(worker.id);
  await liveness.start(worker.id);
  const unwatchQueue = metrics.watchQueue(queue);
  publisher.startSweeping();
  backlog.start();
  const heartbeatLoop = startHeartbeatLoop({ engine: heartbeats, redis: commands, prefix, logger });
  await worker.waitUntilReady();
  metrics.checkConcurrency.set(slots.current);
  slots.start(concurrencyPeriodMs, (limit) => {
    setWorkerConcurrency(worker, limit);
    metrics.checkConcurrency.set(limit);
  });
  logger.info(
    {
      worker_id: worker.id,
      concurrency: slots.current,
      max_concurrency: config.checkConcurrency,
      ping_backend: icmp.name,
      ...(icmp.socketsRefused !== null ? { ping_sockets_refused: icmp.socketsRefused } : {}),
    },
    'check-worker started',
  );
  const parts = {
    logger,
    unwatchQueue,
    slots,
    lag,
    heartbeatLoop,
    inFlight,
    worker,
    batcher,
    backlog,
    publisher,
    queue,
    blocking,
    commands,
    liveness,
    icmp,
  };
  const stop = ({ graceMs = SHUTDOWN_GRACE_MS } = {}): Promise<StopOutcome> => stopCheckWorker(parts, graceMs);
  return {
    worker,
    publisher,
    stop,
    close: async () => {
      await stop();
    },
  };
}

/**
 * Stops taking jobs and waits for the checks in flight and their writes, at most `graceMs`; past
 * that, puts the unfinished checks back in the queue and drops the connections.
 */
async function stopCheckWorker(
  p: {
    logger: Logger;
    unwatchQueue: () => void;
    slots: AdaptiveConcurrency;
    lag: CheckLagReporter;
    heartbeatLoop: { stop(): Promise<void> };
    inFlight: InFlightChecks;
    worker: Worker;
    batcher: ResultBatcher<CheckOutcome>;
    backlog: ResultBacklog;
    publisher: StatusEventPublisher;
    queue: { close(): Promise<void> };
    blocking: Redis;
    commands: Redis;
    liveness: WorkerLiveness;
    icmp: { close(): void };
  },
  graceMs: number,
): Promise<StopOutcome> {
  p.unwatchQueue();
  p.slots.stop();
  await p.lag.stop();
  await p.heartbeatLoop.stop();
  const running = p.inFlight.describe();
  if (running.length > 0) p.logger.info({ in_flight: running }, 'stopping: finishing checks in flight');
  const outcome = await stopWithin(
    graceMs,
    async () => {
      // Stop taking jobs, let in-flight checks finish and their results be written.
      await p.worker.close();
      await p.batcher.drain();
      await p.backlog.stop();
    },
    async () => {
      const requeued = await p.inFlight.requeue();
      p.logger.warn({ requeued }, REQUEUED_AT_STOP_MESSAGE);
      await p.backlog.stop();
    },
    p.logger,
  );
  // Only now: until its checks are finished or requeued, a peer must not take them back.
  await p.liveness.stop();
  if (outcome === 'graceful') {
    await p.publisher.close();
    await p.queue.close();
    await closeRedis(p.blocking);
    await closeRedis(p.commands);
    // No check is left waiting for an echo reply; abandoned ones (below) may be, so their sockets stay open.
    p.icmp.close();
  } else {
    // Whatever is still running is abandoned (and requeued above): drop the connections.
    p.blocking.disconnect();
    p.commands.disconnect();
  }
  return outcome;
}

/** The type of a run-check job's check, for the metrics: a template without one is http's (compact-check.ts). */
function checkTypeOf(data: unknown): ProbedType {
  const type = (data as { check?: { type?: unknown } } | null)?.check?.type;
  return isProbedType(type) ? type : 'http';
}
