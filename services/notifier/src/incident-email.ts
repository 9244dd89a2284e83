import type { FollowupKind, NotificationType } from '@uptime/db';
import type { EmailMessage } from './channels/email-channel';
import { formatDuration, formatSpokenDuration } from './duration';
import { describeFailure, downtimeSeconds } from './incident-text';
import type { IncidentContext } from './incident.repository';

export type Fact = [label: string, value: string];

function downtimeFacts(ctx: IncidentContext): Fact[] {
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

function recoveryFacts(ctx: IncidentContext): Fact[] {
  return [
    ['URL', ctx.monitorUrl],
    ['Downtime', formatDuration(downtimeSeconds(ctx))],
    ['Down since', ctx.startedAt.toISOString()],
    ['Recovered at', (ctx.resolvedAt ?? new Date()).toISOString()],
  ];
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** An alert email's text and HTML bodies: the headline, then one line (row) per fact. */
export function renderEmail(headline: string, facts: Fact[]): { text: string; html: string } {
  const text = [headline, '', ...facts.map(([label, value]) => `${label}: ${value}`)].join('\n');
  const rows = facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`);
  const html = `<p>${escapeHtml(headline)}</p>\n<table>${rows.join('')}</table>`;
  return { text, html };
}

/** The email of a downtime or recovery notification of `ctx`'s incident to `to`. */
export function composeIncidentEmail(type: NotificationType, ctx: IncidentContext, from: string, to: string): EmailMessage {
  const isDowntime = type === 'downtime';
  const subject = isDowntime ? `[DOWN] ${ctx.monitorName} is down` : `[UP] ${ctx.monitorName} is back up`;
  const headline = isDowntime ? `Monitor "${ctx.monitorName}" is down.` : `Monitor "${ctx.monitorName}" is back up.`;
  return { to, from, subject, ...renderEmail(headline, isDowntime ? downtimeFacts(ctx) : recoveryFacts(ctx)) };
}

/**
 * A follow-up of an unacknowledged downtime (docs/alert-rules.md): a reminder to the monitor's
 * recipients, or the escalation to its escalation recipients. `dueAt` is when it fell due: "still
 * down for" counts from the downtime's start to then, so a reminder every 15 minutes reads 15, 30,
 * 45 minutes whatever the sweep's delay.
 */
export function composeFollowupEmail(kind: FollowupKind, ctx: IncidentContext, dueAt: Date, from: string, to: string): EmailMessage {
  const downFor = formatSpokenDuration((dueAt.getTime() - ctx.startedAt.getTime()) / 1000);
  if (kind === 'reminder') {
    const subject = `[DOWN] ${ctx.monitorName} is still down for ${downFor}`;
    const headline = `Monitor "${ctx.monitorName}" is still down for ${downFor}. Reminders stop once the downtime is acknowledged.`;
    return { to, from, subject, ...renderEmail(headline, downtimeFacts(ctx)) };
  }
  const subject = `[ESCALATED] ${ctx.monitorName} is still down for ${downFor}, unacknowledged`;
  const headline = `Monitor "${ctx.monitorName}" is still down for ${downFor} and nobody has acknowledged it; you are its escalation contact.`;
  return { to, from, subject, ...renderEmail(headline, downtimeFacts(ctx)) };
}

/** The email of `POST /monitors/{id}/alerts/test`. */
export function composeTestEmail(monitor: { name: string; url: string }, from: string, to: string): EmailMessage {
  const headline = `Test alert for monitor "${monitor.name}": email alerts reach you.`;
  return { to, from, subject: `[TEST] ${monitor.name}`, ...renderEmail(headline, [['URL', monitor.url]]) };
}
