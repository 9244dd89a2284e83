import { DelayedError, WaitingError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import { nextPlannedTime, offsetOf, scheduleEntriesKey, type RunCheckJob } from '@uptime/queues';
import type { RunCheckOutcome } from './run-check.processor';
import { SameTickBatch } from './same-tick-batch';

/** A check that failed on our side (Redis, Postgres) is tried once more, this much later. */
export const CHECK_RETRY_DELAY_MS = 1000;

/** Logged when a check fails on our side; `retried` says whether it runs again for the same slot. */
export const CHECK_FAILED_MESSAGE = 'check job failed';

// For each job (KEYS: the schedule hash, then the jobs' keys; ARGV: per job its monitor id, its
// id followed by '|', its next data, the BullMQ lock token it runs under): 1 and the data written
// when the monitor's schedule entry still names the job, 0 when a new schedule replaced it, 2 when
// the job's lock no longer holds the token (the peers took the job back from this process while
// it stalled: worker-liveness.ts; the job is theirs now, and so is its data). Writing the `data`
// field of BullMQ's job hash is what Job.updateData() does (updateData-1.lua); here it costs one
// call per result batch instead of one per check. One hash slot under Redis Cluster: the keys
// share the queue prefix.
const ADVANCE = `local current = {}
for i = 2, #KEYS do
  local a = (i - 2) * 4
  local entry = redis.call('hget', KEYS[1], ARGV[a + 1])
  local named = ARGV[a + 2]
  if ARGV[a + 4] ~= '' and redis.call('get', KEYS[i] .. ':lock') ~= ARGV[a + 4] then
    current[i - 1] = 2
  elseif entry and string.sub(entry, 1, #named) == named and redis.call('exists', KEYS[i]) == 1 then
    redis.call('hset', KEYS[i], 'data', ARGV[a + 3])
    current[i - 1] = 1
  else
    current[i - 1] = 0
  end
end
return current`;

/** A job picked up this much or more before its planned time waits for it instead (holdUntilDue). */
const EARLY_TOLERANCE_MS = 1000;

interface Advance {
  jobKey: string;
  monitorId: number;
  jobId: string;
  data: string;
  token: string;
}

type AdvanceVerdict = 'advanced' | 'replaced' | 'taken back';
const VERDICTS: readonly AdvanceVerdict[] = ['replaced', 'advanced', 'taken back'];

/**
 * After a monitor's own job ran (packages/queues/src/monitor-scheduler.ts), records its next
 * planned time in it and sends it back to the delayed set, due then, by throwing BullMQ's
 * DelayedError: the job stays one and the same for as long as the monitor's schedule. A job that
 * a new schedule replaced while a worker ran it (BullMQ cannot remove an active job) ends instead,
 * and BullMQ deletes it as any completed check job.
 *
 * A failure on our side is retried once, a second later, for the same planned time (a result
 * already written for it is not written twice); then the job moves on to its next slot. So a
 * failed check never sends the job to BullMQ's failed set, which would end the monitor's checks
 * until the reconciler noticed (within a minute). Only Redis failing during this very step does:
 * the job then takes BullMQ's own retry, and the reconciler's repair after that.
 */
export class MonitorJobCycle {
  private readonly advances: SameTickBatch<Advance, AdvanceVerdict>;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    const entriesKey = scheduleEntriesKey(prefix);
    this.advances = new SameTickBatch<Advance, AdvanceVerdict>(async (items) => {
      const args = items.flatMap((a) => [a.monitorId, `${a.jobId}|`, a.data, a.token]);
      const current = (await redis.eval(ADVANCE, items.length + 1, entriesKey, ...items.map((a) => a.jobKey), ...args)) as number[];
      return current.map((c) => VERDICTS[c] ?? 'replaced');
    }, 300);
  }

  /** Throws DelayedError once the job waits for its next slot; returns when the job ends. */
  async continue(
    job: Job,
    token: string | undefined,
    ran: { outcome: RunCheckOutcome } | { failure: unknown },
  ): Promise<RunCheckOutcome | 'superseded'> {
    const { retrying, ...data } = job.data as RunCheckJob;
    // Every monitor job carries its interval; one that somehow does not ends like a one-off.
    if (data.interval === undefined) {
      if ('failure' in ran) throw ran.failure;
      return ran.outcome;
    }
    const failed = 'failure' in ran;
    if (failed)
      this.logger.warn({ err: ran.failure, job_id: job.id, monitor_id: data.monitorId, retried: !retrying }, CHECK_FAILED_MESSAGE);
    const now = Date.now();
    let due: RunCheckJob;
    let at: number;
    if (failed && !retrying) {
      due = { ...data, retrying: true };
      at = now + CHECK_RETRY_DELAY_MS;
    } else {
      at = nextPlannedTime(data.plannedAt ?? now, data.interval * 1000, offsetOf(data.monitorId, data.interval), now);
      // The stalls so far are this slot's: a stall after this is a later slot's re-run (stale-rerun.ts).
      due = { ...data, plannedAt: at, stallsSeen: job.stalledCounter };
    }
    const jobId = job.id ?? '';
    const verdict = await this.advances.add({
      jobKey: `${job.queueQualifiedName}:${jobId}`,
      monitorId: data.monitorId,
      jobId,
      data: JSON.stringify(due),
      token: token ?? '',
    });
    if (verdict === 'taken back') throw this.leftToPeers(job);
    if (verdict === 'replaced') {
      this.logger.debug({ job_id: jobId, monitor_id: data.monitorId }, 'job replaced by a new schedule; ended');
      return 'superseded';
    }
    job.data = due;
    await job.moveToDelayed(at, token);
    throw new DelayedError();
  }

  /**
   * A monitor's job picked up well before its planned time waits for it: the job of a process
   * that died between writing its next planned time and moving it to the delayed set comes back
   * through the waiting list (dead-worker-reaper.ts), and must not check its next slot early.
   * Throws DelayedError when it waits; returns when the check is due.
   */
  async holdUntilDue(job: Job, token: string | undefined): Promise<void> {
    const { plannedAt, interval } = job.data as RunCheckJob;
    if (interval === undefined || plannedAt === undefined || plannedAt - Date.now() < EARLY_TOLERANCE_MS) return;
    await job.moveToDelayed(plannedAt, token);
    throw new DelayedError();
  }

  /**
   * For a job this process no longer holds (its peers took it back while it stalled:
   * worker-liveness.ts): BullMQ leaves a job alone after a WaitingError, as it must, since the
   * job's lock and state are another worker's now.
   */
  leftToPeers(job: Job): WaitingError {
    this.logger.info(
      { job_id: job.id, monitor_id: (job.data as Partial<RunCheckJob>).monitorId },
      'check taken back by the other workers; left to them',
    );
    return new WaitingError();
  }
}
