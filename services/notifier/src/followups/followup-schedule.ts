import type { FollowupKind } from '@uptime/db';

const MINUTE_MS = 60_000;

/** What deciding a downtime's next follow-ups needs, read with its notification row locked. */
export interface FollowupState {
  /** The downtime's start: reminders and escalation count from it. */
  startedAt: Date;
  /** The monitor's setting now; null: no reminders. */
  reminderIntervalMinutes: number | null;
  /** The latest reminder recorded, if any. */
  lastReminder: { round: number; dueAt: Date } | null;
  /** The monitor's setting now; null: no escalation. */
  escalationAfterMinutes: number | null;
  hasEscalationRecipients: boolean;
  isEscalated: boolean;
}

/** One follow-up to record: its round is its idempotency key (a reminder's number; 1 for the escalation). */
export interface DueFollowup {
  kind: FollowupKind;
  round: number;
  dueAt: Date;
}

/**
 * The follow-ups of an active, unacknowledged downtime due at `now` (docs/alert-rules.md).
 *
 * Reminders: the next one falls due `interval` after the previous one's due time (the downtime's
 * start for the first), with the interval as set now, so a changed setting applies to the next
 * reminder. When sweeps were missed (every notifier down), one reminder is sent, dated at the
 * latest point of that rhythm not after `now`, never a burst of the missed ones.
 *
 * Escalation: once, `escalationAfterMinutes` after the start, when it has recipients.
 */
export function dueFollowups(state: FollowupState, now: Date): DueFollowup[] {
  const due: DueFollowup[] = [];
  if (state.reminderIntervalMinutes !== null) {
    const step = state.reminderIntervalMinutes * MINUTE_MS;
    const anchor = (state.lastReminder?.dueAt ?? state.startedAt).getTime();
    const steps = Math.floor((now.getTime() - anchor) / step);
    if (steps >= 1) due.push({ kind: 'reminder', round: (state.lastReminder?.round ?? 0) + 1, dueAt: new Date(anchor + steps * step) });
  }
  if (state.escalationAfterMinutes !== null && state.hasEscalationRecipients && !state.isEscalated) {
    const dueAt = new Date(state.startedAt.getTime() + state.escalationAfterMinutes * MINUTE_MS);
    if (dueAt.getTime() <= now.getTime()) due.push({ kind: 'escalation', round: 1, dueAt });
  }
  return due;
}
