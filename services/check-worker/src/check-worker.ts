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
  createRedisConnection,
  expandCheck,
  HeartbeatDeadlines,
  isMonitorJobId,
  JobName,
  parseRunCheckJob,
  type RunCheckJob,
} from '@uptime/queues';
import { HeartbeatEngine } from './heartbeat/heartbeat-engine';
import { startHeartbeatLoop } from './heartbeat/heartbeat-loop';
import { AdaptiveConcurrency } from './adaptive-concurrency';
import { createAgentChecks } from './agent-checks';
import { announceIcmpAccess } from './icmp-access';
import { startCheckLagReporter, type CheckLagReporter } from './check-lag';
import { meteredRecord } from './check-metrics';
import { REQUEUED_AT_STOP_MESSAGE } from './in-flight-checks';
import type { CheckOutcome } from './check-outcome';
import { recordCheckBatch } from './record-check-batch';
import { RESULT_WRITE_DEADLINE_MS, ResultBacklog } from './result-backlog';
import { ResultBatcher } from './result-batcher';
import { createRunCheckProcessor, type RunCheckOutcome } from './run-check.processor';
import { setWorkerConcurrency } from './worker-concurrency';
import { StatusEventPublisher } from './status-event-publisher';
import { LivePublisher } from './live-publisher';
import { LIVENESS_TTL_MS } from './worker-liveness';
import { startShardWorker, type RunningShardWorker, type ShardParts } from './shard-worker';
import { watchOrphanShards } from './shard-takeover';
import { insertNotCheckedSlot } from './check-batch.repository';
import { slotTooLateToRerun, type SkippedSlot } from './stale-rerun';

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
    batcher,
    pinger,
  }: {
    lag: CheckLagReporter;
    slots: AdaptiveConcurrency;
    batcher: ResultBatcher<CheckOutcome>;
    pinger: PingBackend;
  },
  { index: shard, inFlight, cycle, isStillOwned }: ShardParts,
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
    lag.observe(job, started, shard);
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
 * in batches and publishes status changes. Any number may run. With CHECK_SHARDS it runs one
 * BullMQ worker per shard it owns (CHECK_WORKER_SHARDS), and one more on each shard whose owners
 * are all dead, while they are (docs/scaling.md).
 */
export async function startCheckWorker(deps: CheckWorkerDeps): Promise<RunningCheckWorker> {
  const { config, logger, metrics = createServiceMetrics(), checkStatsPublishMs, concurrencyPeriodMs = 1000 } = deps;
  const prefix = config.redis.queuePrefix;
  const commands: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker');
  const { publisher, live, backlog, batcher } = startResultPath(deps, commands);
  const icmp = await announceIcmpAccess({ mode: config.pingBackend, pinger: deps.pinger ?? systemPinger, logger, metrics, readiness: deps.readiness });
  const lag = startCheckLagReporter({ metrics, redis: commands, prefix, logger, publishEveryMs: checkStatsPublishMs });
  const slots = new AdaptiveConcurrency(config.checkConcurrency);
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
  const { shards: allShards, workerShards } = config.checkShards;
  const shardWorkers = new Map<number, RunningShardWorker>();
  // The process's concurrency is shared evenly by its shards' workers: a quiet shard's share is
  // idle, which the adaptive limit then sees as room and grows (adaptive-concurrency.ts).
  const shareOf = (limit: number, workers: number): number => Math.max(1, Math.ceil(limit / Math.max(1, workers)));
  const resize = (): void => {
    for (const { worker } of shardWorkers.values()) setWorkerConcurrency(worker, shareOf(slots.current, shardWorkers.size));
  };
  const startOn = async (index: number, owner: boolean): Promise<RunningShardWorker> => {
    const running = await startShardWorker({
      shard: allShards[index]!,
      shardCount: allShards.length,
      owner,
      config,
      commands,
      logger,
      metrics,
      concurrency: shareOf(slots.current, shardWorkers.size + 1),
      handlers: (parts) => ({
        [JobName.runCheck]: runCheckHandler(deps, metrics, { lag, slots, batcher, pinger: icmp.backend }, parts),
        // Queued by an API of an earlier version: its ping is in the inbox (migration
        // 1796520300000), which the heartbeat loop steps; the job has nothing left to do.
        [JobName.heartbeatPing]: async () => 'stepped from the inbox',
      }),
    });
    shardWorkers.set(index, running);
    resize();
    return running;
  };
  for (const index of workerShards) await startOn(index, true);
  const takeover = watchShardsNotOwned(config, logger, commands, workerShards, {
    takeOver: async (index) => {
      logger.warn({ shard: index }, 'no owner of this shard renewed its liveness: taking it over until one is back');
      await startOn(index, false);
    },
    handBack: async (index) => {
      const running = shardWorkers.get(index);
      if (!running) return;
      logger.info({ shard: index }, 'an owner of this shard is back: handing it back');
      shardWorkers.delete(index);
      resize();
      await running.closeWorker();
      await batcher.drain();
      await running.release(true);
    },
  });
  const first = shardWorkers.get(workerShards[0]!)!;
  publisher.startSweeping();
  backlog.start();
  const heartbeatLoop = startHeartbeatLoop({ engine: heartbeats, redis: commands, prefix, logger });
  metrics.checkConcurrency.set(slots.current);
  slots.start(concurrencyPeriodMs, (limit) => {
    resize();
    metrics.checkConcurrency.set(limit);
  });
  logger.info(
    {
      worker_id: first.worker.id,
      concurrency: slots.current,
      max_concurrency: config.checkConcurrency,
      ping_backend: icmp.name,
      ...(icmp.socketsRefused !== null ? { ping_sockets_refused: icmp.socketsRefused } : {}),
      ...(allShards.length > 1 ? { shards: workerShards } : {}),
    },
    'check-worker started',
  );
  const parts = { logger, slots, lag, heartbeatLoop, takeover, shardWorkers, batcher, backlog, publisher, commands, icmp };
  const stop = ({ graceMs = SHUTDOWN_GRACE_MS } = {}): Promise<StopOutcome> => stopCheckWorker(parts, graceMs);
  return {
    worker: first.worker,
    publisher,
    stop,
    close: async () => {
      await stop();
    },
  };
}

/**
 * The watch over the shards this process does not own (shard-takeover.ts): none with one shard,
 * nor when it owns them all. Each is watched on the process's connection when it lives on
 * REDIS_URL, else on one of its own, closed by stop().
 */
function watchShardsNotOwned(
  config: Config,
  logger: Logger,
  commands: Redis,
  owned: readonly number[],
  handlers: { takeOver(index: number): Promise<void>; handBack(index: number): Promise<void> },
): { stop(): Promise<void> } {
  const others = config.checkShards.shards.filter((s) => !owned.includes(s.index));
  if (others.length === 0) return { stop: async () => undefined };
  const opened: Redis[] = [];
  const watched = others.map((s) => {
    if (s.url === config.redis.url) return { index: s.index, prefix: s.prefix, redis: commands };
    const redis = createRedisConnection(s.url, 'uptime-check-worker-watch');
    opened.push(redis);
    return { index: s.index, prefix: s.prefix, redis };
  });
  const watch = watchOrphanShards({
    shards: watched,
    ttlMs: config.checkWorkerLivenessTtlMs ?? LIVENESS_TTL_MS,
    everyMs: 500,
    onError: (err, index) => logger.warn({ err, shard: index }, 'the owners of a shard could not be read'),
    ...handlers,
  });
  return {
    stop: async () => {
      await watch.stop();
      for (const redis of opened) await closeRedis(redis);
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
    slots: AdaptiveConcurrency;
    lag: CheckLagReporter;
    heartbeatLoop: { stop(): Promise<void> };
    takeover: { stop(): Promise<void> };
    shardWorkers: Map<number, RunningShardWorker>;
    batcher: ResultBatcher<CheckOutcome>;
    backlog: ResultBacklog;
    publisher: StatusEventPublisher;
    commands: Redis;
    icmp: { close(): void };
  },
  graceMs: number,
): Promise<StopOutcome> {
  await p.takeover.stop();
  p.slots.stop();
  await p.lag.stop();
  await p.heartbeatLoop.stop();
  const workers = [...p.shardWorkers.values()];
  const running = workers.flatMap((w) => w.inFlight.describe());
  if (running.length > 0) p.logger.info({ in_flight: running }, 'stopping: finishing checks in flight');
  const outcome = await stopWithin(
    graceMs,
    async () => {
      // Stop taking jobs, let in-flight checks finish and their results be written.
      await Promise.all(workers.map((w) => w.closeWorker()));
      await p.batcher.drain();
      await p.backlog.stop();
    },
    async () => {
      const requeued = (await Promise.all(workers.map((w) => w.inFlight.requeue()))).flat();
      p.logger.warn({ requeued }, REQUEUED_AT_STOP_MESSAGE);
      await p.backlog.stop();
    },
    p.logger,
  );
  // Each shard's worker leaves its liveness registry only now: until its checks are finished or
  // requeued, a peer must not take them back.
  for (const w of workers) await w.release(outcome === 'graceful');
  if (outcome === 'graceful') {
    await p.publisher.close();
    await closeRedis(p.commands);
    // No check is left waiting for an echo reply; abandoned ones (below) may be, so their sockets stay open.
    p.icmp.close();
  } else {
    // Whatever is still running is abandoned (and requeued above): drop the connection.
    p.commands.disconnect();
  }
  return outcome;
}

/** The type of a run-check job's check, for the metrics: a template without one is http's (compact-check.ts). */
function checkTypeOf(data: unknown): ProbedType {
  const type = (data as { check?: { type?: unknown } } | null)?.check?.type;
  return isProbedType(type) ? type : 'http';
}
