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
  type ServiceMetrics,
  type StopOutcome,
} from '@uptime/observability';
import { runProbe } from '@uptime/probe';
import { createQueueWorker, createRedisConnection, JobName, openQueue, QueueName } from '@uptime/queues';
import { AdaptiveConcurrency } from './adaptive-concurrency';
import { createAgentChecks } from './agent-checks';
import { startCheckLagReporter } from './check-lag';
import { meteredRecord } from './check-metrics';
import { HeldCheckLock, InFlightChecks, REQUEUED_AT_STOP_MESSAGE } from './in-flight-checks';
import { recordCheckBatch, type CheckOutcome } from './record-check-batch';
import { ResultBacklog } from './result-backlog';
import { ResultBatcher } from './result-batcher';
import { createRunCheckProcessor } from './run-check.processor';
import { setWorkerConcurrency } from './worker-concurrency';
import { StatusEventPublisher } from './status-event-publisher';

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

/**
 * A check-worker on an open database: consumes `run-check` jobs with as many probes in flight as
 * its measured load needs (at most CHECK_CONCURRENCY: adaptive-concurrency.ts), records results
 * in batches and publishes status changes. Any number may run.
 */
export async function startCheckWorker({
  config,
  dataSource,
  logger,
  metrics = createServiceMetrics(),
  checkStatsPublishMs,
  concurrencyPeriodMs = 1000,
}: CheckWorkerDeps): Promise<RunningCheckWorker> {
  const prefix = config.redis.queuePrefix;
  const commands: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker');
  const publisher = new StatusEventPublisher(dataSource, commands, prefix, logger);
  const backlog = new ResultBacklog({
    write: async (outcomes) => {
      const events = await recordCheckBatch(dataSource, outcomes);
      // Published after commit; if this fails the outbox sweep publishes them later.
      await publisher.publish(events).catch((err: unknown) => logger.warn({ err }, 'status events left for the sweep'));
    },
    redis: commands,
    key: `${prefix}:result-backlog`,
    bounds: config.resultBuffer,
    logger,
  });
  const batcher = new ResultBatcher<CheckOutcome>((outcomes) => backlog.record(outcomes));
  const lag = startCheckLagReporter({ metrics, redis: commands, prefix, logger, publishEveryMs: checkStatsPublishMs });
  const slots = new AdaptiveConcurrency(config.checkConcurrency);
  const inFlight = new InFlightChecks(new HeldCheckLock(commands, prefix, config.checkLockTtlMs));
  const runCheck = createRunCheckProcessor({
    probe: runProbe,
    probeOptions: { allowPrivateTargets: config.allowPrivateTargets },
    lock: inFlight.lock,
    record: meteredRecord(metrics, (outcome) => batcher.add(outcome)),
    logger,
    agents: createAgentChecks({
      ds: dataSource,
      allowPrivateTargets: config.allowPrivateTargets,
      localLocation: config.checkLocation,
      logger,
    }),
  });
  // BullMQ does not close connections it is handed; close() below quits this one.
  const blocking: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker-blocking');
  const worker = createQueueWorker(
    QueueName.checks,
    {
      [JobName.runCheck]: async (job: Job, token?: string) => {
        const started = Date.now();
        lag.observe(job, started);
        const outcome = await slots.hold(() => inFlight.track(job, token, () => runCheck(job)));
        if (outcome === 'skipped') metrics.checks.inc({ result: 'skipped' });
        logger.debug(
          { job_id: job.id, monitor_id: (job.data as { monitorId?: number }).monitorId, outcome, duration_ms: Date.now() - started },
          'check finished',
        );
        return outcome;
      },
    },
    {
      connection: blocking,
      prefix,
      concurrency: slots.current,
      maxStalledCount: 1,
    },
  );
  worker.on('failed', (job, err) =>
    logger.warn({ err, job_id: job?.id, monitor_id: (job?.data as { monitorId?: number } | undefined)?.monitorId }, 'check job failed'),
  );
  worker.on('error', (err) => logger.error({ err }, 'check worker error'));
  // Read on each scrape for queue_jobs{queue="checks"}, which the worker autoscaler follows.
  const queue = openQueue(QueueName.checks, { connection: commands, prefix });
  const unwatchQueue = metrics.watchQueue(queue);
  publisher.startSweeping();
  backlog.start();
  await worker.waitUntilReady();
  metrics.checkConcurrency.set(slots.current);
  slots.start(concurrencyPeriodMs, (limit) => {
    setWorkerConcurrency(worker, limit);
    metrics.checkConcurrency.set(limit);
  });
  logger.info({ concurrency: slots.current, max_concurrency: config.checkConcurrency }, 'check-worker started');
  const stop = async ({ graceMs = SHUTDOWN_GRACE_MS } = {}): Promise<StopOutcome> => {
    unwatchQueue();
    slots.stop();
    await lag.stop();
    const running = inFlight.describe();
    if (running.length > 0) logger.info({ in_flight: running }, 'stopping: finishing checks in flight');
    const outcome = await stopWithin(
      graceMs,
      async () => {
        // Stop taking jobs, let in-flight checks finish and their results be written.
        await worker.close();
        await batcher.drain();
        await backlog.stop();
      },
      async () => {
        const requeued = await inFlight.requeue();
        logger.warn({ requeued }, REQUEUED_AT_STOP_MESSAGE);
        await backlog.stop();
      },
      logger,
    );
    if (outcome === 'graceful') {
      await publisher.close();
      await queue.close();
      await closeRedis(blocking);
      await closeRedis(commands);
    } else {
      // Whatever is still running is abandoned (and requeued above): drop the connections.
      blocking.disconnect();
      commands.disconnect();
    }
    return outcome;
  };

  return {
    worker,
    publisher,
    stop,
    close: async () => {
      await stop();
    },
  };
}
