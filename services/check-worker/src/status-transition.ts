import type { MonitorStatus } from '@uptime/db';

/** What the state machine needs to know about a monitor (contract §5). */
export interface MonitorState {
  status: MonitorStatus;
  consecutiveFailures: number;
  alertThreshold: number;
  openIncidentId: number | null;
}

export interface Transition {
  status: MonitorStatus;
  consecutiveFailures: number;
  /** The check opens a downtime: the monitor went offline with no incident open. */
  opensIncident: boolean;
  /** The check ends the open downtime. */
  closesIncident: boolean;
}

/**
 * One step of the monitor state machine (contract §5). Incidents follow the open incident rather
 * than the previous status, so a downtime paused and resumed still ends with one recovery, and a
 * failure after a resume does not open a second downtime.
 */
export function nextState(state: MonitorState, ok: boolean, maintenance = false): Transition {
  const step = stepState(state, ok);
  // During a maintenance window the status still follows the checks, but no downtime opens: one
  // opens at the first failure after the window if the monitor is still offline (docs/alert-rules.md).
  return maintenance && step.opensIncident ? { ...step, opensIncident: false } : step;
}

function stepState(state: MonitorState, ok: boolean): Transition {
  if (ok) {
    return { status: 'online', consecutiveFailures: 0, opensIncident: false, closesIncident: state.openIncidentId !== null };
  }
  const failures = state.consecutiveFailures + 1;
  if (state.status === 'offline' || failures >= state.alertThreshold) {
    return { status: 'offline', consecutiveFailures: failures, opensIncident: state.openIncidentId === null, closesIncident: false };
  }
  return { status: 'warning', consecutiveFailures: failures, opensIncident: false, closesIncident: false };
}
