import { nextState, type MonitorState } from './status-transition';

const state = (overrides: Partial<MonitorState> = {}): MonitorState => ({
  status: 'pending',
  consecutiveFailures: 0,
  alertThreshold: 1,
  openIncidentId: null,
  ...overrides,
});

describe('nextState', () => {
  it('goes online on success from pending, online and warning', () => {
    for (const status of ['pending', 'online', 'warning'] as const) {
      expect(nextState(state({ status, consecutiveFailures: 2 }), true)).toEqual({
        status: 'online',
        statusReason: null,
        consecutiveFailures: 0,
        consecutiveSuccesses: 0,
        opensIncident: false,
        closesIncident: false,
      });
    }
  });

  it('goes offline and opens an incident at the first failure with the default threshold', () => {
    expect(nextState(state({ status: 'online' }), false)).toEqual({ status: 'offline', statusReason: null, consecutiveFailures: 1, consecutiveSuccesses: 0, opensIncident: true, closesIncident: false });
  });

  it('shows warning until the failures reach alert_threshold', () => {
    const s1 = nextState(state({ status: 'online', alertThreshold: 3 }), false);
    expect(s1).toMatchObject({ status: 'warning', statusReason: 'failing', consecutiveFailures: 1, opensIncident: false });
    const s2 = nextState(state({ status: 'warning', alertThreshold: 3, consecutiveFailures: 1 }), false);
    expect(s2).toMatchObject({ status: 'warning', consecutiveFailures: 2, opensIncident: false });
    const s3 = nextState(state({ status: 'warning', alertThreshold: 3, consecutiveFailures: 2 }), false);
    expect(s3).toMatchObject({ status: 'offline', consecutiveFailures: 3, opensIncident: true });
  });

  it('stays offline without a second incident while failures go on', () => {
    expect(nextState(state({ status: 'offline', consecutiveFailures: 4, openIncidentId: 9 }), false)).toEqual({
      status: 'offline',
      statusReason: null,
      consecutiveFailures: 5,
      consecutiveSuccesses: 0,
      opensIncident: false,
      closesIncident: false,
    });
  });

  it('closes the open incident on recovery', () => {
    expect(nextState(state({ status: 'offline', openIncidentId: 9 }), true)).toMatchObject({ status: 'online', closesIncident: true });
  });

  it('closes an incident left open across a pause when the resumed monitor succeeds', () => {
    expect(nextState(state({ status: 'pending', openIncidentId: 9 }), true)).toMatchObject({ status: 'online', closesIncident: true });
  });

  it('does not open a second incident when a resumed monitor is still down', () => {
    expect(nextState(state({ status: 'pending', openIncidentId: 9 }), false)).toMatchObject({ status: 'offline', opensIncident: false });
  });

  it('puts a slow success in warning (slow), with no incident', () => {
    expect(nextState(state({ status: 'online' }), { ok: true, slow: true })).toEqual({
      status: 'warning',
      statusReason: 'slow',
      consecutiveFailures: 0,
      consecutiveSuccesses: 0,
      opensIncident: false,
      closesIncident: false,
    });
    expect(nextState(state({ status: 'warning' }), { ok: true, slow: false })).toMatchObject({ status: 'online', statusReason: null });
  });

  it('stays offline until recovery_threshold successes in a row, then closes the incident', () => {
    const offline = state({ status: 'offline', consecutiveFailures: 2, openIncidentId: 9, recoveryThreshold: 3 });
    const s1 = nextState(offline, true);
    expect(s1).toEqual({ status: 'offline', statusReason: null, consecutiveFailures: 2, consecutiveSuccesses: 1, opensIncident: false, closesIncident: false });
    const s2 = nextState({ ...offline, consecutiveSuccesses: s1.consecutiveSuccesses }, true);
    expect(s2).toMatchObject({ status: 'offline', consecutiveSuccesses: 2, closesIncident: false });
    const s3 = nextState({ ...offline, consecutiveSuccesses: s2.consecutiveSuccesses }, { ok: true, slow: true });
    expect(s3).toMatchObject({ status: 'warning', statusReason: 'slow', consecutiveSuccesses: 0, closesIncident: true });
  });

  it('starts the recovery count again after a failure while offline', () => {
    const s = nextState(state({ status: 'offline', consecutiveFailures: 1, consecutiveSuccesses: 2, openIncidentId: 9, recoveryThreshold: 3 }), false);
    expect(s).toMatchObject({ status: 'offline', consecutiveSuccesses: 0, consecutiveFailures: 2, opensIncident: false });
  });
});
