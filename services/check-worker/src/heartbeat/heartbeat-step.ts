import { nextDueAfter, type HeartbeatSchedule } from '@uptime/probe';
import type { HeartbeatRow, PingRow } from './heartbeat.repository';

/** What a ping or a missed deadline says to the state machine, as a check would. */
export interface HeartbeatVerdict {
  ok: boolean;
  at: Date;
  /** Why it is a failure, for people; null for a success. */
  error: string | null;
  kind: PingRow['kind'] | 'missed';
}

export interface HeartbeatStep {
  /** The row's times after the step. */
  row: HeartbeatRow;
  verdicts: HeartbeatVerdict[];
  /** Each finish's duration since the start it ends. */
  durations: { pingId: string; ms: number }[];
}

export const scheduleOfRow = (h: Pick<HeartbeatRow, 'period' | 'cron' | 'timezone'>): HeartbeatSchedule =>
  h.cron ? { cron: h.cron, timezone: h.timezone } : { period: h.period ?? 0 };

/**
 * When a verdict that happened at `at` is recorded: at least 1 ms after the previous one. A
 * verdict is a check result, unique by monitor and planned time in milliseconds (JavaScript's
 * Date), so two pings of one millisecond would otherwise be one result and the second, a fail
 * after a success perhaps, lost (docs/heartbeats.md).
 */
export const laterThan = (at: Date, last: Date | null): Date => (last !== null && at.getTime() <= last.getTime() ? new Date(last.getTime() + 1) : at);

/**
 * Steps a heartbeat through its new pings, oldest first (docs/heartbeats.md): a success (or exit
 * status 0) is up and due again one period (or the next cron time) after it; a start opens a
 * run that must finish within the grace; a fail or a non-zero exit status is down at once. A
 * paused monitor's pings are consumed and change nothing.
 */
export function stepPings(h: HeartbeatRow, pings: readonly PingRow[]): HeartbeatStep {
  const row = { ...h };
  const verdicts: HeartbeatVerdict[] = [];
  const durations: { pingId: string; ms: number }[] = [];
  if (h.status === 'paused') return { row, verdicts, durations };
  for (const p of pings) {
    if (p.kind === 'start') {
      row.startedAt = p.receivedAt;
      continue;
    }
    if (row.startedAt !== null) durations.push({ pingId: p.id, ms: p.receivedAt.getTime() - row.startedAt.getTime() });
    row.startedAt = null;
    const ok = p.kind === 'success' || (p.kind === 'exit' && p.exitStatus === 0);
    row.dueAt = ok ? nextDueAfter(scheduleOfRow(row), p.receivedAt) : null;
    row.lastVerdictAt = laterThan(p.receivedAt, row.lastVerdictAt);
    verdicts.push({
      ok,
      at: row.lastVerdictAt,
      kind: p.kind,
      error: ok ? null : p.kind === 'fail' ? 'the job reported a failure' : `the job exited with status ${p.exitStatus}`,
    });
  }
  return { row, verdicts, durations };
}

/**
 * The verdict of a deadline passed at `now`, if it has: a start not finished within the grace, or
 * no success by the due time plus the grace. Nothing is due after it until the next success.
 */
export function stepDeadline(h: HeartbeatRow, deadline: Date | null, now: Date): HeartbeatStep {
  if (deadline === null || now < deadline || h.status === 'paused') return { row: h, verdicts: [], durations: [] };
  const startedLate = h.startedAt !== null && h.startedAt.getTime() + h.grace * 1000 <= deadline.getTime();
  const error = startedLate
    ? `started, did not finish in ${h.grace} s`
    : h.status === 'pending'
      ? `no ping within ${h.grace} s of the first expected time`
      : `no ping within ${h.grace} s of its due time`;
  const at = laterThan(deadline, h.lastVerdictAt);
  return { row: { ...h, dueAt: null, startedAt: null, lastVerdictAt: at }, verdicts: [{ ok: false, at, error, kind: 'missed' }], durations: [] };
}
