import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CheckLock } from './check-lock';
import { countAsStall } from './job-stalls';

/** Logged with `requeued` (the jobs) when a stop puts checks back; bench/capacity counts them. */
export const REQUEUED_AT_STOP_MESSAGE = 'checks still running at the deadline were put back in the queue';

/**
 * The check jobs this process is running. On a forced shutdown (work still in flight after the
 * grace period) they are put back in the waiting list at once, with their per-monitor locks
 * released, so another worker runs them now: not after the stalled-job check notices the lost
 * job lock (up to 1.7 check-lock lives later: check-worker.ts), and not skipped because this
 * process's monitor lock is still held. If this process records the result after all, the retry's insert of the same
 * (monitor, planned time) is a no-op: a check ends with exactly one result either way.
 */
export class InFlightChecks {
  private readonly jobs = new Map<string, { job: Job; token?: string }>();
  /** Jobs abandon() gave up while they ran: their results are not recorded nor their jobs advanced. */
  private readonly abandoned = new WeakSet<Job>();

  constructor(
    readonly lock: CheckLock,
    private readonly redis: Redis,
  ) {}

  async track<T>(job: Job, token: string | undefined, run: () => Promise<T>): Promise<T> {
    const key = job.id ?? '';
    this.jobs.set(key, { job, token });
    try {
      return await run();
    } finally {
      this.jobs.delete(key);
    }
  }

  /** For logs: which jobs (and monitors) are still running. */
  describe(): { job_id: string | undefined; monitor_id: number | undefined }[] {
    return [...this.jobs.values()].map(({ job }) => ({
      job_id: job.id,
      monitor_id: (job.data as { monitorId?: number } | undefined)?.monitorId,
    }));
  }

  /** Whether abandon() gave up this job while it ran. */
  isAbandoned(job: Job): boolean {
    return this.abandoned.has(job);
  }

  /**
   * This process was declared dead while it stalled (worker-liveness.ts) and its peers took back
   * the jobs it ran then: every check in flight is given up, since the peers re-run the same
   * planned times. A job the peers did not take (taken after they declared this process dead)
   * goes back to waiting here, and is re-run as they are. Returns what was given up.
   */
  async abandon(): Promise<{ job_id: string | undefined; monitor_id: number | undefined }[]> {
    for (const { job } of this.jobs.values()) this.abandoned.add(job);
    return this.requeue();
  }

  /** Moves every running job back to waiting and releases the monitor locks; returns what was requeued. */
  async requeue(): Promise<{ job_id: string | undefined; monitor_id: number | undefined }[]> {
    const running = this.describe();
    // Each counts as a stall of its job: the worker that picks it up re-runs it only if that cannot
    // delay the next slot (stale-rerun.ts).
    await Promise.allSettled(
      [...this.jobs.values()].map(async ({ job, token }) => {
        if (token !== undefined && !(await countAsStall(this.redis, `${job.queueQualifiedName}:${job.id ?? ''}`, token))) return;
        await job.moveToWait(token);
      }),
    );
    await this.lock.releaseAll();
    return running;
  }
}
