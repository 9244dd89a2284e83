import type { FollowupKind, NotificationType } from '@uptime/db';
import type { DowntimeAlert } from '../alert';
import type { SlackMessage } from '../channels/slack';
import { formatDuration, formatSpokenDuration } from '../duration';
import type { AlertKindSpec, MessageTarget } from './alert-kind';
import { composeSlack, emailOf, escapeMrkdwn, monitorPageUrl, slackOf, type AlertWords, type Fact } from './messages';

/** What failed, in a few words: the probe's error, else the HTTP status. */
function describeFailure(ctx: DowntimeAlert): string {
  if (ctx.error) return ctx.error;
  return ctx.statusCode === null ? 'check failed' : `unexpected HTTP status ${ctx.statusCode}`;
}

/** The downtime duration in seconds: the incident's, or so far when it is still open. */
function downtimeSeconds(ctx: DowntimeAlert): number {
  if (ctx.duration !== null) return ctx.duration;
  return Math.round(((ctx.resolvedAt ?? new Date()).getTime() - ctx.startedAt.getTime()) / 1000);
}

/** notifications.message of the downtime notification. */
const downtimeMessage = (ctx: DowntimeAlert): string =>
  `Monitor "${ctx.monitorName}" (${ctx.monitorUrl}) is down: ${describeFailure(ctx)}`;

/** notifications.message of the recovery notification. */
const recoveryMessage = (ctx: DowntimeAlert): string =>
  `Monitor "${ctx.monitorName}" (${ctx.monitorUrl}) is back up after ${formatDuration(downtimeSeconds(ctx))} of downtime`;

function downtimeFacts(ctx: DowntimeAlert): Fact[] {
  const facts: Fact[] = [
    ['URL', ctx.monitorUrl],
    ['Error', describeFailure(ctx)],
    ['Status code', ctx.statusCode === null ? 'none (no HTTP response)' : String(ctx.statusCode)],
    ['Response time', ctx.responseTime === null ? 'n/a' : `${ctx.responseTime} ms`],
    ['Down since', ctx.startedAt.toISOString()],
  ];
  // The downtime email of an incident that closed before the notifier got to it (a backlog, an
  // event handled late) says so, rather than implying the site is still down.
  if (ctx.resolvedAt) facts.push(['Back up at', ctx.resolvedAt.toISOString()]);
  return facts;
}

function recoveryFacts(ctx: DowntimeAlert): Fact[] {
  return [
    ['URL', ctx.monitorUrl],
    ['Downtime', formatDuration(downtimeSeconds(ctx))],
    ['Down since', ctx.startedAt.toISOString()],
    ['Recovered at', (ctx.resolvedAt ?? new Date()).toISOString()],
  ];
}

/** What a downtime or recovery notification of `ctx`'s incident says. */
function noticeWords(type: NotificationType, ctx: DowntimeAlert): AlertWords {
  if (type === 'downtime') return { subject: `[DOWN] ${ctx.monitorName} is down`, headline: `Monitor "${ctx.monitorName}" is down.`, facts: downtimeFacts(ctx) };
  return { subject: `[UP] ${ctx.monitorName} is back up`, headline: `Monitor "${ctx.monitorName}" is back up.`, facts: recoveryFacts(ctx) };
}

/**
 * A follow-up of an unacknowledged downtime (docs/alert-rules.md): a reminder to the monitor's
 * recipients, or the escalation to its escalation recipients. `dueAt` is when it fell due: "still
 * down for" counts from the downtime's start to then, so a reminder every 15 minutes reads 15, 30,
 * 45 minutes whatever the sweep's delay.
 */
function followupWords(kind: FollowupKind, ctx: DowntimeAlert, dueAt: Date): AlertWords {
  const downFor = formatSpokenDuration((dueAt.getTime() - ctx.startedAt.getTime()) / 1000);
  if (kind === 'reminder') {
    return {
      subject: `[DOWN] ${ctx.monitorName} is still down for ${downFor}`,
      headline: `Monitor "${ctx.monitorName}" is still down for ${downFor}. Reminders stop once the downtime is acknowledged.`,
      facts: downtimeFacts(ctx),
    };
  }
  return {
    subject: `[ESCALATED] ${ctx.monitorName} is still down for ${downFor}, unacknowledged`,
    headline: `Monitor "${ctx.monitorName}" is still down for ${downFor} and nobody has acknowledged it; you are its escalation contact.`,
    facts: downtimeFacts(ctx),
  };
}

/** The words of one delivery: the notice of its notification, or a reminder or escalation that says how long the downtime has lasted by then. */
const wordsOf = (target: MessageTarget, ctx: DowntimeAlert): AlertWords =>
  target.kind === 'notice' ? noticeWords(target.type, ctx) : followupWords(target.kind, ctx, target.followupDueAt ?? new Date());

/**
 * The Slack message of a downtime or recovery notification: a `text` fallback, and blocks naming
 * the monitor, its URL, the error or the downtime, with a link to the monitor's page.
 */
function composeDowntimeSlack(type: NotificationType, ctx: DowntimeAlert, appUrl: string): SlackMessage {
  const isDowntime = type === 'downtime';
  const name = escapeMrkdwn(ctx.monitorName);
  const headline = isDowntime ? `:red_circle: *${name}* is down` : `:large_green_circle: *${name}* is back up`;
  const detail = isDowntime ? `*Error:* ${escapeMrkdwn(describeFailure(ctx))}` : `*Downtime:* ${formatDuration(downtimeSeconds(ctx))}`;
  const link = monitorPageUrl(appUrl, ctx.monitorId);
  const text = isDowntime
    ? `${ctx.monitorName} is down: ${describeFailure(ctx)} (${ctx.monitorUrl}) ${link}`
    : `${ctx.monitorName} is back up after ${formatDuration(downtimeSeconds(ctx))} (${ctx.monitorUrl}) ${link}`;
  return composeSlack({ text, headline, detail, monitorUrl: ctx.monitorUrl, link });
}

/**
 * The monitor was offline (an incident): a `downtime` notification, held back while a monitor it
 * depends on is offline, followed up by reminders and the escalation while unacknowledged
 * (followups/), and at its end a `recovery` notification, sent while `alert_on_recovery` is on
 * and not after a downtime resolved by hand (docs/notifications.md).
 */
export const downtime: AlertKindSpec<DowntimeAlert> = {
  contextOf: (base, row) => ({
    ...base,
    kind: 'downtime',
    alertOnRecovery: row.alert_on_recovery,
    statusCode: row.status_code,
    responseTime: row.response_time,
    error: row.error,
  }),
  notificationType: 'downtime',
  message: downtimeMessage,
  errorDetails: (alert) => ({ status_code: alert.statusCode, response_time: alert.responseTime, error_message: alert.error ?? '' }),
  isSuppressedByDependencies: true,
  opensWhenOver: true,
  end: { tells: 'notification', type: 'recovery', message: recoveryMessage, isSent: (alert) => alert.alertOnRecovery },
  words: wordsOf,
  email: (target, alert, from, to) => emailOf(wordsOf(target, alert), from, to),
  // A reminder reaching a Slack channel says how long the downtime has lasted, as its email does.
  slack: (target, alert, appUrl) => (target.kind === 'notice' ? composeDowntimeSlack(target.type, alert, appUrl) : slackOf(wordsOf(target, alert), alert, appUrl)),
};
