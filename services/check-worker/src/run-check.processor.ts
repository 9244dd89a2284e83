import type { Job } from 'bullmq';
import type { Logger } from '@uptime/logger';
import type { CheckConfig, ProbeOptions, ProbeResult } from '@uptime/probe';
import { parseJob, RunCheckJob } from '@uptime/queues';
import type { CheckLock } from './check-lock';
import type { CheckOutcome } from './record-check-batch';

export interface RunCheckDeps {
  probe: (config: CheckConfig, options: ProbeOptions) => Promise<ProbeResult>;
  probeOptions: ProbeOptions;
  lock: CheckLock;
  record: (outcome: CheckOutcome) => Promise<void>;
  logger: Logger;
}

export type RunCheckOutcome = 'recorded' | 'skipped';

/** The time a job was planned for: scheduler jobs are `repeat:{id}:{millis}`, one-offs `now-{id}-{millis}`. */
export function plannedTimeOf(job: Pick<Job, 'id' | 'timestamp' | 'opts'>): Date {
  const fromId = /[:-](\d{12,})$/.exec(job.id ?? '');
  if (fromId) return new Date(Number(fromId[1]));
  return new Date(job.timestamp + (job.opts.delay ?? 0));
}

/**
 * `run-check`: probe with the configuration carried by the job (no database read), then hand the
 * result to the batch recorder and wait until it is written. Errors on our side throw, so BullMQ
 * retries the job; they never become a "down" result.
 */
export function createRunCheckProcessor(deps: RunCheckDeps): (job: Job) => Promise<RunCheckOutcome> {
  return async (job) => {
    const data = parseJob(RunCheckJob, job.data);
    const { check } = data;
    const ttlMs = (check.timeout * (check.retryCount + 1) + 30) * 1000;
    const release = await deps.lock.acquire(data.monitorId, ttlMs);
    if (!release) {
      deps.logger.debug({ monitor_id: data.monitorId, job_id: job.id }, 'previous check still running; skipped');
      return 'skipped';
    }
    try {
      const result = await deps.probe(check, deps.probeOptions);
      await deps.record({ monitorId: data.monitorId, configVersion: data.configVersion, scheduledAt: plannedTimeOf(job), result });
      return 'recorded';
    } finally {
      await release().catch(() => undefined);
    }
  };
}
