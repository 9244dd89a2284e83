import { DelayedError, type Job } from 'bullmq';
import type { Logger } from '@uptime/logger';
import { nextPlannedTime, offsetOf, type RunCheckJob } from '@uptime/queues';
import type { RunCheckOutcome } from './run-check.processor';

/** A check that failed on our side (Redis, Postgres) is tried once more, this much later. */
export const CHECK_RETRY_DELAY_MS = 1000;

/** Logged when a check fails on our side; `retried` says whether it runs again for the same slot. */
export const CHECK_FAILED_MESSAGE = 'check job failed';

/**
 * After a monitor's own job ran (packages/queues/src/monitor-scheduler.ts), sends it back to the
 * delayed set, due at its next slot, by throwing BullMQ's DelayedError; the job stays one and the
 * same for as long as the monitor's schedule. A job that a new schedule replaced returns, and
 * BullMQ deletes it as any completed check job.
 *
 * A failure on our side is retried once, a second later, for the same planned time (a result
 * already written for it is not written twice); then the job moves on to its next slot. It never
 * reaches BullMQ's failed set, which would end the monitor's checks until the reconciler noticed.
 */
export async function continueSchedule(
  job: Job,
  token: string | undefined,
  ran: { outcome: RunCheckOutcome } | { failure: unknown },
  logger: Logger,
): Promise<RunCheckOutcome> {
  const { retrying, ...data } = job.data as RunCheckJob;
  // Every monitor job carries its interval; one that somehow does not ends like a one-off.
  if (data.interval === undefined) {
    if ('failure' in ran) throw ran.failure;
    return ran.outcome;
  }
  if ('outcome' in ran && ran.outcome === 'superseded') return ran.outcome;
  const failed = 'failure' in ran;
  if (failed) logger.warn({ err: ran.failure, job_id: job.id, monitor_id: data.monitorId, retried: !retrying }, CHECK_FAILED_MESSAGE);
  const now = Date.now();
  const every = data.interval * 1000;
  let due: RunCheckJob;
  let at: number;
  if (failed && !retrying) {
    due = { ...data, retrying: true };
    at = now + CHECK_RETRY_DELAY_MS;
  } else {
    at = nextPlannedTime(data.plannedAt ?? now, every, offsetOf(data.monitorId, data.interval), now);
    due = { ...data, plannedAt: at };
  }
  await job.updateData(due);
  await job.moveToDelayed(at, token);
  throw new DelayedError();
}
