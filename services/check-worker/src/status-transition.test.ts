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
        consecutiveFailures: 0,
        opensIncident: false,
        closesIncident: false,
      });
    }
  });

  it('goes offline and opens an incident at the first failure with the default threshold', () => {
    expect(nextState(state({ status: 'online' }), false)).toEqual({ status: 'offline', consecutiveFailures: 1, opensIncident: true, closesIncident: false });
  });

  it('shows warning until the failures reach alert_threshold', () => {
    const s1 = nextState(state({ status: 'online', alertThreshold: 3 }), false);
    expect(s1).toMatchObject({ status: 'warning', consecutiveFailures: 1, opensIncident: false });
    const s2 = nextState(state({ status: 'warning', alertThreshold: 3, consecutiveFailures: 1 }), false);
    expect(s2).toMatchObject({ status: 'warning', consecutiveFailures: 2, opensIncident: false });
    const s3 = nextState(state({ status: 'warning', alertThreshold: 3, consecutiveFailures: 2 }), false);
    expect(s3).toMatchObject({ status: 'offline', consecutiveFailures: 3, opensIncident: true });
  });

  it('stays offline without a second incident while failures go on', () => {
    expect(nextState(state({ status: 'offline', consecutiveFailures: 4, openIncidentId: 9 }), false)).toEqual({
      status: 'offline',
      consecutiveFailures: 5,
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
});
