import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { runProbe } from '@uptime/probe';
import { createRedisConnection, JobName, QueueName } from '@uptime/queues';
import { CheckLock } from './check-lock';
import { recordCheckBatch, type CheckOutcome } from './record-check-batch';
import { ResultBatcher } from './result-batcher';
import { createRunCheckProcessor } from './run-check.processor';
import { StatusEventPublisher } from './status-event-publisher';

export interface RunningCheckWorker {
  worker: Worker;
  publisher: StatusEventPublisher;
  close(): Promise<void>;
}

/**
 * A check-worker on an open database: consumes `run-check` jobs with CHECK_CONCURRENCY probes in
 * flight, records results in batches and publishes status changes. Any number may run.
 */
export async function startCheckWorker({ config, dataSource, logger }: { config: Config; dataSource: DataSource; logger: Logger }): Promise<RunningCheckWorker> {
  const prefix = config.redis.queuePrefix;
  const commands: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker');
  const publisher = new StatusEventPublisher(dataSource, commands, prefix, logger);
  const batcher = new ResultBatcher<CheckOutcome>(async (outcomes) => {
    const events = await recordCheckBatch(dataSource, outcomes);
    // Published after commit; if this fails the outbox sweep publishes them later.
    await publisher.publish(events).catch((err: unknown) => logger.warn({ err }, 'status events left for the sweep'));
  });
  const runCheck = createRunCheckProcessor({
    probe: runProbe,
    probeOptions: { allowPrivateTargets: config.allowPrivateTargets },
    lock: new CheckLock(commands, prefix),
    record: (outcome) => batcher.add(outcome),
    logger,
  });
  // BullMQ does not close connections it is handed; close() below quits this one.
  const blocking: Redis = createRedisConnection(config.redis.url, 'uptime-check-worker-blocking');
  const worker = new Worker(
    QueueName.checks,
    async (job: Job) => {
      if (job.name !== JobName.runCheck) throw new Error(`check-worker has no handler for job "${job.name}"`);
      return runCheck(job);
    },
    {
      connection: blocking,
      prefix,
      concurrency: config.checkConcurrency,
      maxStalledCount: 1,
    },
  );
  worker.on('failed', (job, err) => logger.warn({ err, job_id: job?.id, monitor_id: (job?.data as { monitorId?: number } | undefined)?.monitorId }, 'check job failed'));
  worker.on('error', (err) => logger.error({ err }, 'check worker error'));
  publisher.startSweeping();
  await worker.waitUntilReady();
  logger.info({ concurrency: config.checkConcurrency }, 'check-worker started');
  return {
    worker,
    publisher,
    close: async () => {
      // Stop taking jobs, let in-flight checks finish and their results be written.
      await worker.close();
      await batcher.drain();
      await publisher.close();
      await blocking.quit();
      await commands.quit();
    },
  };
}
