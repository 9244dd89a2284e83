import { UnrecoverableError, type Job, type Worker } from 'bullmq';
import { createChannelTestProcessor } from './channel-test.processor';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import { carryOverAlertSettings, checkStoredSecrets, loadSecretKeyring, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import {
  closeRedis,
  createServiceMetrics,
  SHUTDOWN_GRACE_MS,
  stopWithin,
  type ServiceMetrics,
  type StopOutcome,
} from '@uptime/observability';
import { allowAnyAddress, allowPublicAddressesOnly } from '@uptime/probe';
import { createQueueWorker, createRedisConnection, JobName, openQueue, parseJob, QueueName, StatusPageEventJob } from '@uptime/queues';
import { createEmailChannel } from './channels/create-email-channel';
import type { EmailChannel } from './channels/email-channel';
import { MeteredEmailChannel } from './channels/metered-email';
import { createAlertTestProcessor } from './alert-test.processor';
import { createInvitationEmailProcessor } from './invitation-email.processor';
import { createDeliveryDeps } from './deliveries/delivery-deps';
import { startDeliverySweeper } from './deliveries/delivery-sweeper';
import { startFollowupSweeper } from './followups/followup-sweeper';
import { deliverPageEvent } from './page-events/deliver-page-event';
import { startPageEventSweeper } from './page-events/page-event-sweeper';
import { createSubscriptionConfirmationProcessor } from './page-events/subscription-confirmation.processor';
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
  /** The process's metrics; by default a registry of its own. */
  metrics?: ServiceMetrics;
  /** How often this notifier sweeps for due and abandoned deliveries, and for due reminders and escalations; default 5 s. */
  sweepIntervalMs?: number;
  /** The time reminders and escalations fall due against (docs/alert-rules.md); the system clock by default. */
  clock?: () => Date;
}

export interface Notifier {
  worker: Worker;
  /**
   * One pass of the reminder and escalation sweep at `now` (by default the clock's time), as the
   * timer runs it; resolves with how many follow-ups it recorded (docs/alert-rules.md).
   */
  sweepFollowups(now?: Date): Promise<number>;
  /** One pass of the status page subscriber email sweep, as the timer runs it; resolves with how many it attempted. */
  sweepPageEvents(): Promise<number>;
  /**
   * Stops taking jobs, waits for those in flight (at most `graceMs`, default 30 s), then closes
   * what the notifier opened. Past the deadline the connection is dropped ('forced'): the
   * unfinished jobs lose their lock and are retried as stalled, and every step is idempotent.
   */
  stop(options?: { graceMs?: number }): Promise<StopOutcome>;
  /** `stop()` with the default grace period. */
  close(): Promise<void>;
}

/** What sending needs, from the configuration: the email channel (metered), the sender, links, the address rule. */
function deliveryOptionsOf(deps: NotifierDeps, metrics: ServiceMetrics) {
  const { config, logger } = deps;
  return {
    dataSource: deps.dataSource,
    emailChannel: new MeteredEmailChannel(deps.emailChannel ?? createEmailChannel(config.mail, logger), metrics),
    mailFrom: config.mail.from,
    appUrl: config.http.appUrl,
    addressPolicy: config.allowPrivateTargets ? allowAnyAddress : allowPublicAddressesOnly,
    logger,
    metrics,
    leaseMs: config.deliveryLeaseMs,
    channelServices: config.channelServices,
    // Opens channel secrets; in production a missing SECRETS_KEY stops the notifier here.
    keyring: loadSecretKeyring({ env: config.env, ...config.secrets, dataDir: config.local?.dataDir }, (line) => logger.info(line)),
  };
}

/** A failed job is a warning while BullMQ will retry it, an error once it will not. */
const logFailedJob =
  (logger: Logger) =>
  (job: Job | undefined, err: Error): void => {
    const willRetry = job !== undefined && !(err instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    const monitorId = (job?.data as { monitorId?: number } | undefined)?.monitorId;
    const details = { job_id: job?.id, monitor_id: monitorId, job_name: job?.name, attempts_made: job?.attemptsMade, err };
    if (willRetry) logger.warn(details, 'status-changed job failed; will retry');
    else logger.error(details, 'status-changed job failed');
  };

/** Starts consuming `status-changes`; resolves once the worker is connected. */
export async function startNotifier(deps: NotifierDeps): Promise<Notifier> {
  const { config, logger } = deps;
  const metrics = deps.metrics ?? createServiceMetrics();
  const delivery = deliveryOptionsOf(deps, metrics);
  // Before connecting and sending: in production a key that cannot open the stored channel
  // secrets stops the notifier here, rather than failing each of its sends (docs/channels.md).
  await checkStoredSecrets(deps.dataSource.manager, delivery.keyring, { env: config.env, log: (line) => logger.error(line) });
  const ownsConnection = deps.connection === undefined;
  const connection = deps.connection ?? createRedisConnection(config.redis.url, 'uptime-notifier');
  // Before anything is sent: the monitor's own Slack and webhook settings still waiting since
  // migration 1796520200000 become its own channels, so no delivery of theirs is sent the old way
  // or twice (packages/db/src/own-channels/carry-over.ts).
  const carried = await carryOverAlertSettings(deps.dataSource, delivery.keyring);
  if (carried > 0) logger.info({ monitors: carried }, "monitors' own Slack and webhook settings carried over into their own channels");
  const deliveryDeps = createDeliveryDeps(delivery);
  // A status page's subscriber emails go through the same delivery records, claims and retries.
  const pageEvents = { ...deliveryDeps, emailChannel: delivery.emailChannel, mailFrom: delivery.mailFrom, publicUrl: config.http.publicUrl };
  const worker = createQueueWorker(
    QueueName.statusChanges,
    {
      [JobName.statusChanged]: createStatusChangedProcessor({ ...delivery, live: { redis: connection, prefix: config.redis.queuePrefix } }),
      // Its return value is the job's result (the deliveries), which the api waits for.
      [JobName.alertTest]: createAlertTestProcessor(delivery),
      [JobName.invitationEmail]: createInvitationEmailProcessor(delivery),
      [JobName.channelTest]: createChannelTestProcessor(delivery),
      [JobName.statusPageEvent]: async (job) => deliverPageEvent(pageEvents, parseJob(StatusPageEventJob, job.data).eventId),
      [JobName.subscriptionConfirmation]: createSubscriptionConfirmationProcessor(delivery),
    },
    // How long finished jobs stay in Redis is the catalog's (job-catalog.ts), set on each job.
    { connection, prefix: config.redis.queuePrefix, concurrency: deps.concurrency ?? 10 },
  );
  const sweeper = startDeliverySweeper(deliveryDeps, { intervalMs: deps.sweepIntervalMs });
  const pageEventSweeper = startPageEventSweeper(pageEvents, { intervalMs: deps.sweepIntervalMs, ...(deps.clock ? { clock: deps.clock } : {}) });
  const followups = startFollowupSweeper(deliveryDeps, { intervalMs: deps.sweepIntervalMs, ...(deps.clock ? { clock: deps.clock } : {}) });
  worker.on('failed', logFailedJob(logger));
  worker.on('error', (err) => logger.error({ err }, 'notifier worker error'));
  // Read on each scrape for queue_jobs{queue="status-changes"}.
  const queue = openQueue(QueueName.statusChanges, { connection, prefix: config.redis.queuePrefix });
  const unwatchQueue = metrics.watchQueue(queue);
  await worker.waitUntilReady();
  logger.info({ queue: QueueName.statusChanges, prefix: config.redis.queuePrefix }, 'notifier started');

  const stop = async ({ graceMs = SHUTDOWN_GRACE_MS } = {}): Promise<StopOutcome> => {
    unwatchQueue();
    await sweeper.stop();
    await pageEventSweeper.stop();
    await followups.stop();
    const outcome = await stopWithin(
      graceMs,
      () => worker.close(),
      async () => {
        if (ownsConnection) connection.disconnect();
      },
      logger,
    );
    if (outcome === 'graceful') {
      await queue.close();
      if (ownsConnection) await closeRedis(connection);
    }
    return outcome;
  };

  return {
    worker,
    sweepFollowups: (now) => followups.sweep(now),
    sweepPageEvents: () => pageEventSweeper.sweep(),
    stop,
    close: async () => {
      await stop();
    },
  };
}
