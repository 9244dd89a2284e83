import { recordAudit, type AuditActor } from '../audit/audit';
import { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { DomainError, ServiceUnavailableError } from '@uptime/errors';
import { enqueue, JOBS, type AlertTestJob, type AlertTestResult, type CatalogQueue, type QueueName } from '@uptime/queues';
import { getMonitor } from './monitors.service';

/** The answer waits this long for the attempts; what has not finished by then is shown pending. */
export const TEST_WAIT_MS = 15_000;
const POLL_MS = 200;
/** Test sends per monitor and minute: enough to try a fix, too few to spam a channel. */
export const TESTS_PER_MINUTE = 5;

export interface AlertTestDeps {
  ds: DataSource;
  redis: Redis;
  /** QUEUE_PREFIX, for the rate-limit counter. */
  prefix: string;
  /** The status-changes queue, which every notifier consumes. */
  queue: CatalogQueue<typeof QueueName.statusChanges>;
}

/** Thrown past the limit; `retryAfterSeconds` goes into the answer's Retry-After. */
export class TestRateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    what = 'monitor',
  ) {
    super('RATE_LIMIT_EXCEEDED', `At most ${TESTS_PER_MINUTE} test alerts a minute per ${what}; retry in ${retryAfterSeconds} seconds`);
  }
}

/**
 * A fixed one-minute window per tested thing in Redis, shared by every API instance: a monitor's
 * key is its id, a channel's `channel-<id>`.
 */
export async function takeTestSlot(deps: Pick<AlertTestDeps, 'redis' | 'prefix'>, subject: string, what = 'monitor'): Promise<void> {
  const key = `${deps.prefix}:alert-test:${subject}`;
  const [[, count], [, ttl]] = (await deps.redis.multi().incr(key).pttl(key).exec()) as [[null, number], [null, number]];
  if (ttl < 0) await deps.redis.pexpire(key, 60_000);
  if (count > TESTS_PER_MINUTE) throw new TestRateLimitedError(Math.max(1, Math.ceil((ttl < 0 ? 60_000 : ttl) / 1000)), what);
}

/**
 * Waits for a test job a notifier runs: its result once its attempts finished, or its progress
 * as it stands after {@link TEST_WAIT_MS}. A test no notifier picked up by then is withdrawn and
 * answered 503: nothing was sent.
 */
export async function awaitTestResult(queue: AlertTestDeps['queue'], jobId: string | undefined): Promise<AlertTestResult> {
  const deadline = Date.now() + TEST_WAIT_MS;
  for (;;) {
    const job = jobId === undefined ? undefined : await Job.fromId<unknown, AlertTestResult>(queue, jobId);
    const state = await job?.getState();
    if (job && state === 'completed') return job.returnvalue;
    const progress = job?.progress as AlertTestResult | undefined;
    if (state === 'failed' || Date.now() >= deadline) {
      if (progress && Array.isArray(progress.deliveries)) return progress;
      await job?.remove().catch(() => undefined);
      throw new ServiceUnavailableError('No notifier took the test send within 15 seconds; nothing was sent');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * `POST /monitors/{id}/alerts/test`: asks a notifier (the owner of every channel) to send a test
 * message on each enabled channel, and answers with the deliveries (awaitTestResult).
 */
export async function sendTestAlerts(
  deps: AlertTestDeps,
  organizationId: number,
  monitorId: number,
  actor: AuditActor,
): Promise<AlertTestResult> {
  await getMonitor(deps.ds, organizationId, monitorId);
  await takeTestSlot(deps, String(monitorId));
  // Nothing changes, but messages go out to the channels: the log records who asked (docs/audit-log.md).
  await deps.ds.transaction((em) => recordAudit(em, { organizationId, actor, action: 'monitor.alert_test', resourceId: monitorId }));
  const data: AlertTestJob = { monitorId };
  const added = await enqueue(deps.queue, JOBS.alertTest, data);
  return awaitTestResult(deps.queue, added.id);
}
