import type { MonitorStatus } from './entities';

/*
 * The one rule for "no data" (docs/statistics.md): the check-worker records a span with it when
 * checks resume, and the API shows a span still open with it (`endedAt` = now).
 */

/** More than this many intervals between two checks of an active monitor is time nobody looked. */
export const NO_DATA_AFTER_INTERVALS = 2;

/** What is known of a monitor before a check is recorded. */
export interface PreviousCheck {
  status: MonitorStatus;
  lastCheck: Date | null;
  checkIntervalSeconds: number;
  /** The monitor's updated_at: the last change of its configuration, pause or resume. */
  configChangedAt: Date;
}

/** A stretch of time in which an active monitor was not checked. */
export interface UncheckedSpan {
  startedAt: Date;
  endedAt: Date;
}

/**
 * The time a check at `checkedAt` shows went unchecked: from when the check after `lastCheck`
 * was due until this one started, when that is more than two intervals. Nothing for a new or
 * resumed monitor, or one whose configuration (perhaps its interval) changed since its last
 * check: their gap is not missed work. Results written late after a database outage carry their
 * real check times, so they close no span: those checks did run.
 */
export function uncheckedSpanBefore(previous: PreviousCheck, checkedAt: Date): UncheckedSpan | null {
  const { lastCheck, status, configChangedAt } = previous;
  if (lastCheck === null || status === 'paused' || status === 'pending' || configChangedAt > lastCheck) return null;
  const intervalMs = previous.checkIntervalSeconds * 1000;
  if (checkedAt.getTime() - lastCheck.getTime() <= NO_DATA_AFTER_INTERVALS * intervalMs) return null;
  return { startedAt: new Date(lastCheck.getTime() + intervalMs), endedAt: checkedAt };
}

