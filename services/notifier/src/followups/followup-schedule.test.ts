import { dueFollowups, type FollowupState } from './followup-schedule';

const start = new Date('2026-11-22T10:00:00.000Z');
const at = (minutes: number, seconds = 0): Date => new Date(start.getTime() + minutes * 60_000 + seconds * 1000);
const state = (over: Partial<FollowupState> = {}): FollowupState => ({
  startedAt: start,
  reminderIntervalMinutes: 15,
  lastReminder: null,
  escalationAfterMinutes: null,
  hasEscalationRecipients: false,
  isEscalated: false,
  ...over,
});

describe('dueFollowups', () => {
  it('is quiet before the first interval has passed', () => {
    expect(dueFollowups(state(), at(14, 59))).toEqual([]);
  });

  it('dates the first reminder at start + interval, the next at the previous + interval', () => {
    expect(dueFollowups(state(), at(15, 3))).toEqual([{ kind: 'reminder', round: 1, dueAt: at(15) }]);
    expect(dueFollowups(state({ lastReminder: { round: 1, dueAt: at(15) } }), at(29))).toEqual([]);
    expect(dueFollowups(state({ lastReminder: { round: 1, dueAt: at(15) } }), at(30))).toEqual([{ kind: 'reminder', round: 2, dueAt: at(30) }]);
  });

  it('sends one reminder, not a burst, after missed sweeps, on the same rhythm', () => {
    expect(dueFollowups(state({ lastReminder: { round: 2, dueAt: at(30) } }), at(100))).toEqual([{ kind: 'reminder', round: 3, dueAt: at(90) }]);
  });

  it('applies a changed interval to the next reminder', () => {
    expect(dueFollowups(state({ reminderIntervalMinutes: 5, lastReminder: { round: 1, dueAt: at(15) } }), at(20))).toEqual([
      { kind: 'reminder', round: 2, dueAt: at(20) },
    ]);
  });

  it('escalates once, after its minutes, only with recipients', () => {
    const escalating = state({ reminderIntervalMinutes: null, escalationAfterMinutes: 30, hasEscalationRecipients: true });
    expect(dueFollowups(escalating, at(29))).toEqual([]);
    expect(dueFollowups(escalating, at(31))).toEqual([{ kind: 'escalation', round: 1, dueAt: at(30) }]);
    expect(dueFollowups({ ...escalating, isEscalated: true }, at(31))).toEqual([]);
    expect(dueFollowups({ ...escalating, hasEscalationRecipients: false }, at(31))).toEqual([]);
  });

  it('sends nothing with both settings off', () => {
    expect(dueFollowups(state({ reminderIntervalMinutes: null }), at(600))).toEqual([]);
  });
});
