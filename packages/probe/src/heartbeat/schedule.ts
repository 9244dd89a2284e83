import { Cron } from 'croner';

/**
 * The bounds of a heartbeat monitor's schedule (docs/heartbeats.md). Pure data and croner: the
 * API validates with it, the check-worker computes due times with it, and the web form shows
 * the next expected times with it.
 */
export const HEARTBEAT_LIMITS = {
  periodMin: 30,
  periodMax: 365 * 86400,
  graceMin: 30,
  graceMax: 30 * 86400,
  graceDefault: 300,
  timezoneDefault: 'UTC',
  cronMaxLength: 120,
} as const;

/** When pings are expected: every `period` seconds, or at the times of a 5-field cron in a zone. */
export type HeartbeatSchedule = { period: number; cron?: null; timezone?: string | null } | { period?: null; cron: string; timezone?: string | null };

/** Whether `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const cronOf = (expression: string, timezone: string): Cron => new Cron(expression, { timezone, paused: true });

/** Why a cron expression is refused, or null: five fields, each one croner reads. */
export function cronProblem(expression: string): string | null {
  if (expression.trim().split(/\s+/).length !== 5) return 'heartbeat_cron must have 5 fields (minute hour day month weekday)';
  try {
    cronOf(expression, 'UTC');
    return null;
  } catch (err) {
    return `heartbeat_cron is not a cron expression: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * The next `count` times a ping is expected after `after`. Cron times are wall-clock times of the
 * zone: a time the clocks skip (02:30 on the night they go forward) comes once, an hour later,
 * and a time they repeat (the night they go back) comes once, the first time (croner's reading,
 * tested in heartbeat-schedule.test.ts).
 */
export function nextExpectedTimes(schedule: HeartbeatSchedule, after: Date, count: number): Date[] {
  if (schedule.cron) return cronOf(schedule.cron, schedule.timezone ?? HEARTBEAT_LIMITS.timezoneDefault).nextRuns(count, after);
  const period = (schedule.period ?? 0) * 1000;
  return Array.from({ length: count }, (_, i) => new Date(after.getTime() + period * (i + 1)));
}

/** When the next ping is due after a success (or the creation) at `after`; null: never (a cron with no next time). */
export function nextDueAfter(schedule: HeartbeatSchedule, after: Date): Date | null {
  return nextExpectedTimes(schedule, after, 1)[0] ?? null;
}

/** What a heartbeat's deadline is made of, as its row holds it. */
export interface HeartbeatTimes {
  /** When the next ping is due; null: none expected (offline after a miss or a failure). */
  heartbeatDueAt: Date | null;
  /** A start not finished yet: it must finish within the grace. */
  heartbeatStartedAt: Date | null;
  heartbeatGrace: number | null;
}

/**
 * When the monitor goes offline unless a success comes first: the due time plus the grace, or an
 * unfinished start plus the grace, whichever is sooner; null when nothing is expected.
 */
export function heartbeatDeadline(t: HeartbeatTimes): Date | null {
  const grace = (t.heartbeatGrace ?? HEARTBEAT_LIMITS.graceDefault) * 1000;
  const ends = [t.heartbeatDueAt, t.heartbeatStartedAt].filter((d): d is Date => d !== null).map((d) => d.getTime() + grace);
  return ends.length === 0 ? null : new Date(Math.min(...ends));
}
