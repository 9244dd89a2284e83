import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { createRedisConnection, JobName, QueueName } from '@uptime/queues';
import { createEmailChannel } from './channels/create-email-channel';
import type { EmailChannel } from './channels/email-channel';
import { createStatusChangedProcessor } from './status-changed.processor';

export interface NotifierDeps {
  config: Config;
  /** Owned by the caller (the notifier process or the all-in-one process), never closed here. */
  dataSource: DataSource;
  logger: Logger;
  /** A Redis connection to share; by default the notifier opens and closes its own. */
  connection?: Redis;
  /** By default chosen from `config.mail` (SendGrid, SMTP or the log). */
  emailChannel?: EmailChannel;
  /** Jobs processed at once by this process; default 10. */
  concurrency?: number;
}

export interface Notifier {
  worker: Worker;
  /** Stops taking jobs, waits for those in flight, then closes what the notifier opened. */
  close(): Promise<void>;
}

/** Starts consuming `status-changes`; resolves once the worker is connected. */
export async function startNotifier(deps: NotifierDeps): Promise<Notifier> {
  const { config, logger } = deps;
  const ownsConnection = deps.connection === undefined;
  const connection = deps.connection ?? createRedisConnection(config.redis.url, 'uptime-notifier');
  const handlers: Record<string, (job: Job) => Promise<void>> = {
    [JobName.statusChanged]: createStatusChangedProcessor({
      dataSource: deps.dataSource,
      emailChannel: deps.emailChannel ?? createEmailChannel(config.mail, logger),
      mailFrom: config.mail.from,
      logger,
    }),
  };

  const worker = new Worker(
    QueueName.statusChanges,
    async (job: Job) => {
      const handle = handlers[job.name];
      // A job this worker cannot handle will never succeed here: fail it without retries.
      if (!handle) throw new UnrecoverableError(`no handler for job "${job.name}" on queue ${QueueName.statusChanges}`);
      await handle(job);
    },
    {
      connection,
      prefix: config.redis.queuePrefix,
      concurrency: deps.concurrency ?? 10,
      // Bounded history. A re-published event whose job was already removed runs again harmlessly:
      // the processor is idempotent.
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  );
  worker.on('failed', (job, err) => {
    const willRetry = job !== undefined && !(err instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    const details = { jobId: job?.id, jobName: job?.name, attemptsMade: job?.attemptsMade, err };
    if (willRetry) logger.warn(details, 'status-changed job failed; will retry');
    else logger.error(details, 'status-changed job failed');
  });
  worker.on('error', (err) => logger.error({ err }, 'notifier worker error'));
  await worker.waitUntilReady();
  logger.info({ queue: QueueName.statusChanges, prefix: config.redis.queuePrefix }, 'notifier started');

  return {
    worker,
    close: async () => {
      await worker.close();
      if (ownsConnection) await connection.quit();
    },
  };
}
