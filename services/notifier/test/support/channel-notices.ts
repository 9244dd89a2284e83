import { allowAnyAddress } from '@uptime/probe';
import type { CertificateAlert, DowntimeAlert, SlowAlert } from '../../src/alert';
import type { ServiceSendDeps } from '../../src/channels/service-channel';
import { acknowledgedNoticeOf, noticeOf, testNoticeOf, type ChannelNotice, type NoticeEvent } from '../../src/channels/channel-notice';

export const APP_URL = 'http://app.example.test';

const audience = {
  monitorId: 41,
  ownerId: 1,
  memberEmails: [],
  monitorName: 'Shop <checkout> & "cart"',
  monitorUrl: 'https://shop.example.com/health?a=1&b=2',
  emailNotifications: true,
  channels: [],
  escalationChannels: [],
};
const startedAt = new Date('2026-12-01T10:00:00.000Z');
const resolvedAt = new Date('2026-12-01T10:12:30.000Z');

/** A downtime of incident 77, open or (with `resolved`) over after 12 m 30 s. */
export function aDowntime(resolved = false): DowntimeAlert {
  return {
    ...audience,
    kind: 'downtime',
    ref: { id: 77 },
    startedAt,
    resolvedAt: resolved ? resolvedAt : null,
    duration: resolved ? 750 : null,
    alertOnRecovery: true,
    statusCode: 503,
    responseTime: 812,
    error: 'unexpected HTTP status 503 <Service Unavailable>',
  };
}

const slowAlert: SlowAlert = { ...audience, kind: 'slow', ref: { id: 78 }, startedAt, resolvedAt, duration: 750, alertOnSlow: true, responseTime: 4200, responseTimeThreshold: 2000 };
const certificateAlert: CertificateAlert = {
  ...audience,
  kind: 'certificate',
  ref: { id: 79 },
  startedAt,
  resolvedAt: null,
  duration: null,
  certificateExpiresAt: new Date('2026-12-08T10:00:00.000Z'),
  certificateExpiryDays: 14,
};

const notice = { kind: 'notice' as const, followupDueAt: null };

/** One notice of each event, from the alert kinds' own words. */
export const NOTICES: Record<NoticeEvent, ChannelNotice> = {
  down: noticeOf({ ...notice, type: 'downtime', phase: 'opened' }, aDowntime(), APP_URL),
  up: noticeOf({ ...notice, type: 'recovery', phase: 'opened' }, aDowntime(true), APP_URL),
  slow: noticeOf({ ...notice, type: 'slow', phase: 'opened' }, slowAlert, APP_URL),
  slow_resolved: noticeOf({ ...notice, type: 'slow', phase: 'resolved' }, slowAlert, APP_URL),
  certificate: noticeOf({ ...notice, type: 'certificate', phase: 'opened' }, certificateAlert, APP_URL),
  acknowledged: acknowledgedNoticeOf(aDowntime(), APP_URL, new Date('2026-12-01T10:05:00.000Z')),
  test: testNoticeOf({ id: 41, name: audience.monitorName, url: audience.monitorUrl }, APP_URL, 'channel-5', new Date('2026-12-01T09:00:00.000Z')),
};

/** Sends with private targets allowed, the fixed-address services (base-URL variables) pointed at `url`. */
export const serviceDepsFor = (url: string, overrides: Partial<ServiceSendDeps> = {}): ServiceSendDeps => ({
  addressPolicy: allowAnyAddress,
  endpoints: { telegramApiUrl: url, pagerdutyEventsUrl: url, pushoverApiUrl: url },
  ...overrides,
});
