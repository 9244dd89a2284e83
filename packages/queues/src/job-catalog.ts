import type { BackoffOptions, JobsOptions, KeepJobs } from 'bullmq';
import { AlertTestJob } from './alert-test.job';
import { ChannelTestJob } from './channel-test.job';
import { HeartbeatPingJob } from './heartbeat-ping.job';
import { InvitationEmailJob } from './invitation-email.job';
import { QueueName } from './queue-names';
import { RunCheckJob } from './run-check.job';
import { StatusChangedJob, statusChangedJobId } from './status-changed.job';
import { StatusPageEventJob, statusPageEventJobId, SubscriptionConfirmationJob } from './status-page-jobs';

/** How long Redis keeps a job once it finished: `true` removes it at once, `false` keeps it. */
export interface JobRetention {
  completed: boolean | KeepJobs;
  failed: boolean | KeepJobs;
}

/**
 * Everything producers and consumers must agree on about one kind of job. Retention and retries
 * travel with each job (BullMQ reads them from the job, so a worker's own defaults would only
 * apply to jobs queued without them, which the catalog never does).
 */
export interface JobDefinition<Q extends QueueName = QueueName, N extends string = string, P extends object = object> {
  readonly queue: Q;
  readonly name: N;
  /** The payload class and its rules; the consumer checks a job's data with `parseJob(payload, data)`. */
  readonly payload: new () => P;
  /** The id of a job queued by `enqueue()`; without it BullMQ numbers the job. */
  jobId?(data: P): string;
  readonly attempts: number;
  readonly backoff?: BackoffOptions;
  readonly retention: JobRetention;
}

const defineJob = <Q extends QueueName, N extends string, P extends object>(job: JobDefinition<Q, N, P>): JobDefinition<Q, N, P> => job;

/**
 * A test send the api waits for (a monitor's channels, or one channel): never retried, since the
 * caller is waiting and a second attempt would send the messages twice; its result kept an hour.
 */
const WAITED_TEST_SEND = {
  attempts: 1,
  retention: { completed: { age: 3600 }, failed: { age: 3600 } },
} as const;

/**
 * A job telling of one row of an outbox (a status change, a status page event): retried for
 * long, since the row waits for it. Kept a day so that a re-publish of the same event is
 * recognised by its job id and ignored; one published again later runs again harmlessly (the
 * notifier is idempotent).
 */
const OUTBOX_EVENT = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  retention: { completed: { age: 86_400 }, failed: { age: 7 * 86_400 } },
} as const;

/** A job sending one email whose link is a credential: nothing keeps it once sent, and a failed one only an hour. */
const SECRET_LINK_EMAIL = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  retention: { completed: true, failed: { age: 3600 } },
} as const;

/**
 * The queue catalog: every job the processes exchange. Queue names, job names and job ids never
 * change (deployed workers and the jobs already in Redis depend on them); payload fields are only
 * ever added, as optional.
 */
export const JOBS = {
  /** Probe one monitor. Each monitor's own job (monitor-scheduler.ts), and one-offs from `checkNow()`. */
  runCheck: defineJob({
    queue: QueueName.checks,
    name: 'run-check',
    payload: RunCheckJob,
    // One-off checks only, ending in their planned time, which the check-worker reads back
    // (plannedTimeOf()); a monitor's own job is `m-{id}-{generation}` and carries it (plannedAt).
    jobId: (data) => `now-${data.monitorId}-${Date.now()}`,
    // A check that failed on our side (Redis, Postgres, a crash) is retried once; the next one is
    // due within one interval anyway. A monitor's own job retries by itself and never fails
    // (services/check-worker/src/monitor-job-cycle.ts).
    attempts: 2,
    backoff: { type: 'fixed', delay: 1000 },
    retention: { completed: true, failed: { count: 1000 } },
  }),
  /**
   * Retired: a ping's wake-up, queued by APIs before the heartbeat inbox (docs/heartbeats.md, "How
   * it is built"). Kept so the jobs such an API left in Redis still meet a handler, which completes
   * them: their pings are in the inbox.
   */
  heartbeatPing: defineJob({
    queue: QueueName.checks,
    name: 'heartbeat-ping',
    payload: HeartbeatPingJob,
    jobId: (data) => `hb-${data.monitorId}-${data.pingId}`,
    // The pings are in Postgres; a retry only reads them again (nothing is stepped twice).
    attempts: 3,
    backoff: { type: 'fixed', delay: 500 },
    retention: { completed: true, failed: { count: 1000 } },
  }),
  /** One row of the status_events outbox, published by the check-worker after its batch committed. */
  statusChanged: defineJob({
    queue: QueueName.statusChanges,
    name: 'status-changed',
    payload: StatusChangedJob,
    jobId: (data) => statusChangedJobId(data.eventId),
    ...OUTBOX_EVENT,
  }),
  /** A test send on a monitor's channels; the api waits for its result (`POST /monitors/{id}/alerts/test`). */
  alertTest: defineJob({
    queue: QueueName.statusChanges,
    name: 'alert-test',
    payload: AlertTestJob,
    ...WAITED_TEST_SEND,
  }),
  /** The email of a new organization invitation (`POST /organizations/{org_id}/invitations`). */
  invitationEmail: defineJob({
    queue: QueueName.statusChanges,
    name: 'invitation-email',
    payload: InvitationEmailJob,
    ...SECRET_LINK_EMAIL,
  }),
  /** A test send through one channel; the api waits for its result (`POST /channels/{id}/test`). */
  channelTest: defineJob({
    queue: QueueName.statusChanges,
    name: 'channel-test',
    payload: ChannelTestJob,
    ...WAITED_TEST_SEND,
  }),
  /** Tell a status page's subscribers about an event (docs/status-pages.md, "Subscribers"). */
  statusPageEvent: defineJob({
    queue: QueueName.statusChanges,
    name: 'status-page-event',
    payload: StatusPageEventJob,
    jobId: (data) => statusPageEventJobId(data.eventId),
    ...OUTBOX_EVENT,
  }),
  /** The confirmation email of a new status page subscription (`POST /status/{slug}/subscribe`). */
  subscriptionConfirmation: defineJob({
    queue: QueueName.statusChanges,
    name: 'subscription-confirmation',
    payload: SubscriptionConfirmationJob,
    ...SECRET_LINK_EMAIL,
  }),
} as const;

/** Any job of the catalog. */
export type CatalogJob = (typeof JOBS)[keyof typeof JOBS];

/** The names of the jobs of `Q`. */
export type JobNameOf<Q extends QueueName> = Extract<CatalogJob, { queue: Q }>['name'];

/** Job names by role, for code that only names a job (tests, log lines). */
export const JobName = {
  runCheck: JOBS.runCheck.name,
  heartbeatPing: JOBS.heartbeatPing.name,
  statusChanged: JOBS.statusChanged.name,
  alertTest: JOBS.alertTest.name,
  invitationEmail: JOBS.invitationEmail.name,
  channelTest: JOBS.channelTest.name,
  statusPageEvent: JOBS.statusPageEvent.name,
  subscriptionConfirmation: JOBS.subscriptionConfirmation.name,
} as const;

/** The catalog's jobs of one queue. */
export function jobsOf(queue: QueueName): readonly CatalogJob[] {
  return Object.values(JOBS).filter((job) => job.queue === queue);
}

/** The options every job of `job` is queued with (a monitor's own job too), without the id. */
export function jobOptionsOf(job: JobDefinition): JobsOptions {
  const options: JobsOptions = { attempts: job.attempts, removeOnComplete: job.retention.completed, removeOnFail: job.retention.failed };
  if (job.backoff) options.backoff = job.backoff;
  return options;
}
