import type { MonitorStatus } from '@uptime/db';
import type { StatusReason } from './status-reason';

/** What the state machine needs to know about a monitor (docs/monitors.md). */
export interface MonitorState {
  status: MonitorStatus;
  consecutiveFailures: number;
  alertThreshold: number;
  openIncidentId: number | null;
  /** Successes in a row while offline; absent means 0. */
  consecutiveSuccesses?: number;
  /** Successes in a row needed to leave offline (`recovery_threshold`); absent means 1. */
  recoveryThreshold?: number;
}

export interface Transition {
  status: MonitorStatus;
  /** Why the monitor reads `warning`; null for every other status. */
  statusReason: StatusReason | null;
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  /** The check opens a downtime: the monitor went offline with no incident open. */
  opensIncident: boolean;
  /** The check ends the open downtime. */
  closesIncident: boolean;
}

/** A finished check as the state machine sees it. */
export interface CheckVerdict {
  ok: boolean;
  /** A successful check slower than `response_time_threshold` (status-reason.ts). */
  slow?: boolean;
}

/**
 * One step of the monitor state machine (docs/monitors.md). Incidents follow the open incident
 * rather than the previous status, so a downtime paused and resumed still ends with one recovery,
 * and a failure after a resume does not open a second downtime. An offline monitor needs
 * `recovery_threshold` successes in a row before it leaves offline and its downtime ends; a slow
 * success counts as a success there, and lands in warning (slow) instead of online.
 */
export function nextState(state: MonitorState, check: boolean | CheckVerdict, maintenance = false): Transition {
  const step = stepState(state, check);
  // During a maintenance window the status still follows the checks, but no downtime opens: one
  // opens at the first failure after the window if the monitor is still offline (docs/alert-rules.md).
  return maintenance && step.opensIncident ? { ...step, opensIncident: false } : step;
}

function stepState(state: MonitorState, check: boolean | CheckVerdict): Transition {
  const { ok, slow = false } = typeof check === 'boolean' ? { ok: check } : check;
  if (ok) {
    const successes = (state.consecutiveSuccesses ?? 0) + 1;
    if (state.status === 'offline' && successes < (state.recoveryThreshold ?? 1)) {
      return { status: 'offline', statusReason: null, consecutiveFailures: state.consecutiveFailures, consecutiveSuccesses: successes, opensIncident: false, closesIncident: false };
    }
    return {
      status: slow ? 'warning' : 'online',
      statusReason: slow ? 'slow' : null,
      consecutiveFailures: 0,
      consecutiveSuccesses: 0,
      opensIncident: false,
      closesIncident: state.openIncidentId !== null,
    };
  }
  const failures = state.consecutiveFailures + 1;
  if (state.status === 'offline' || failures >= state.alertThreshold) {
    return { status: 'offline', statusReason: null, consecutiveFailures: failures, consecutiveSuccesses: 0, opensIncident: state.openIncidentId === null, closesIncident: false };
  }
  return { status: 'warning', statusReason: 'failing', consecutiveFailures: failures, consecutiveSuccesses: 0, opensIncident: false, closesIncident: false };
}
