import type { CheckConfig } from '@uptime/probe';
import { nextPlannedTime, offsetOf, type RunCheckJob } from '@uptime/queues';

/** A monitor's job as it is picked up: its data and BullMQ's count of its stalls. */
export interface PickedUpJob {
  data: Pick<RunCheckJob, 'monitorId' | 'interval' | 'plannedAt' | 'stallsSeen'>;
  stalledCounter: number;
}

/** The slot a re-run gives up, recorded as not checked, and the next slot the job goes on to. */
export interface SkippedSlot {
  plannedAt: number;
  nextPlannedAt: number;
}

/**
 * A job picked up within this of its slot is on time, whatever its stalls: one whose worker died
 * after writing its next slot but before delaying it is held until that slot
 * (MonitorJobCycle.holdUntilDue) and then runs as any other.
 */
const ON_TIME_MS = 1000;

/** The longest one check can take: every attempt (1 + retries) waiting its whole timeout. */
export function worstCaseCheckMs(check: Pick<CheckConfig, 'timeout' | 'retryCount'>): number {
  return check.timeout * 1000 * (check.retryCount + 1);
}

/**
 * The slot of a check that came back from a worker that died or stalled mid-check (its stall
 * count rose since the job last moved on: dead-worker-reaper.ts, BullMQ's stalled check), when
 * re-running it now could run into the monitor's next slot: one monitor's checks never overlap,
 * so the next slot would wait for the re-run and start late (docs/reliability.md, "A check-worker
 * killed mid-check"). Undefined when the check is to run: a first attempt, a job picked up on
 * time, or a re-run whose worst case ends before the next slot. `checkOf` is called only for a
 * late re-run: reading a job's check costs more than the rest of this, on every check.
 */
export function slotTooLateToRerun(
  job: PickedUpJob,
  checkOf: () => Pick<CheckConfig, 'timeout' | 'retryCount'>,
  now: number,
): SkippedSlot | undefined {
  const { monitorId, interval, plannedAt, stallsSeen = 0 } = job.data;
  if (interval === undefined || plannedAt === undefined || job.stalledCounter <= stallsSeen || now - plannedAt <= ON_TIME_MS)
    return undefined;
  const nextPlannedAt = nextPlannedTime(plannedAt, interval * 1000, offsetOf(monitorId, interval), now);
  if (now + worstCaseCheckMs(checkOf()) <= nextPlannedAt) return undefined;
  return { plannedAt, nextPlannedAt };
}
