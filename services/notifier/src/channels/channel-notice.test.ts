import type { DowntimeAlert } from '../alert';
import { alertKeyOf, noticeOf } from './channel-notice';

const startedAt = new Date('2026-12-01T10:00:00.000Z');
const resolvedAt = new Date('2026-12-01T10:05:00.000Z');
const alert: DowntimeAlert = {
  kind: 'downtime',
  ref: { id: 12 },
  monitorId: 3,
  ownerId: 1,
  memberEmails: [],
  monitorName: 'API',
  monitorUrl: 'https://api.example.com',
  emailNotifications: true,
  channels: [],
  escalationChannels: [],
  startedAt,
  resolvedAt,
  duration: 300,
  alertOnRecovery: true,
  statusCode: null,
  responseTime: null,
  error: 'connect ECONNREFUSED',
};

describe('noticeOf', () => {
  const target = { phase: 'opened' as const, kind: 'notice' as const, followupDueAt: null };

  it('tells a downtime as down at its start and its recovery as up at its end, under one key', () => {
    const down = noticeOf({ ...target, type: 'downtime' }, alert, 'https://app.example.com/');
    const up = noticeOf({ ...target, type: 'recovery' }, alert, 'https://app.example.com/');
    expect([down.event, down.at, down.alertKey]).toEqual(['down', startedAt, alertKeyOf(12)]);
    expect([up.event, up.at, up.alertKey]).toEqual(['up', resolvedAt, alertKeyOf(12)]);
    expect(down.link).toBe('https://app.example.com/monitors/3');
    expect(down.facts).toContainEqual(['Error', 'connect ECONNREFUSED']);
    expect(up.facts).toContainEqual(['Downtime', '5m']);
  });

  it("tells a reminder as down, in the reminder's own words", () => {
    const reminder = noticeOf({ ...target, type: 'downtime', kind: 'reminder', followupDueAt: new Date('2026-12-01T10:15:00.000Z') }, alert, 'https://app.example.com');
    expect(reminder.event).toBe('down');
    expect(reminder.title).toBe('[DOWN] API is still down for 15 minutes');
  });
});
