import type { DeliveryPhase, NotificationType } from '@uptime/db';
import type { EmailMessage } from './channels/email-channel';
import type { SlackMessage } from './channels/slack';
import { formatDuration } from './duration';
import type { EpisodeContext } from './episode.repository';
import { renderEmail, type Fact } from './incident-email';
import { composeSlack, escapeMrkdwn, monitorPageUrl } from './incident-slack';

const DAY_MS = 86_400_000;

/**
 * How long the certificate had left when the episode opened, in words: "has expired", "expires in
 * less than a day", "expires in 3 days" (rounded). Measured from the check that found it under the
 * limit, so every message of one notification says the same.
 */
export function certificateCountdown(ctx: Pick<EpisodeContext, 'certificateExpiresAt' | 'startedAt'>): string {
  const left = (ctx.certificateExpiresAt?.getTime() ?? 0) - ctx.startedAt.getTime();
  if (left <= 0) return 'has expired';
  if (left < DAY_MS) return 'expires in less than a day';
  const days = Math.round(left / DAY_MS);
  return `expires in ${days} day${days === 1 ? '' : 's'}`;
}

const ms = (value: number | null): string => (value === null ? 'n/a' : `${value} ms`);
const slowSeconds = (ctx: EpisodeContext): number =>
  ctx.duration ?? Math.round(((ctx.resolvedAt ?? new Date()).getTime() - ctx.startedAt.getTime()) / 1000);

/** notifications.message of the episode's notification. */
export function episodeMessage(ctx: EpisodeContext): string {
  const monitor = `Monitor "${ctx.monitorName}" (${ctx.monitorUrl})`;
  if (ctx.kind === 'slow')
    return `${monitor} is slow: responded in ${ms(ctx.responseTime)}, over its ${ms(ctx.responseTimeThreshold)} threshold`;
  return `${monitor}: its TLS certificate ${certificateCountdown(ctx)} (${ctx.certificateExpiresAt?.toISOString() ?? 'unknown'})`;
}

/** What one delivery says: a slow period starting (`opened`) or ending (`resolved`), or a certificate. */
function wordsOf(phase: DeliveryPhase, ctx: EpisodeContext): { subject: string; headline: string; facts: Fact[] } {
  const name = ctx.monitorName;
  if (ctx.kind === 'certificate') {
    const countdown = certificateCountdown(ctx);
    return {
      subject: `[CERT] ${name}: certificate ${countdown}`,
      headline: `The TLS certificate of monitor "${name}" ${countdown}.`,
      facts: [
        ['URL', ctx.monitorUrl],
        ['Expires at', ctx.certificateExpiresAt?.toISOString() ?? 'unknown'],
        ['Alert limit', `${ctx.certificateExpiryDays ?? '?'} days`],
      ],
    };
  }
  if (phase === 'resolved') {
    return {
      subject: `[OK] ${name} is no longer slow`,
      headline: `Monitor "${name}" is no longer slow.`,
      facts: [
        ['URL', ctx.monitorUrl],
        ['Slow for', formatDuration(slowSeconds(ctx))],
        ['Slow since', ctx.startedAt.toISOString()],
        ['Ended at', (ctx.resolvedAt ?? new Date()).toISOString()],
      ],
    };
  }
  return {
    subject: `[SLOW] ${name} is slow`,
    headline: `Monitor "${name}" is responding slowly.`,
    facts: [
      ['URL', ctx.monitorUrl],
      ['Response time', ms(ctx.responseTime)],
      ['Threshold', ms(ctx.responseTimeThreshold)],
      ['Slow since', ctx.startedAt.toISOString()],
    ],
  };
}

/** The email of one phase of a slow or certificate notification to `to`. */
export function composeEpisodeEmail(phase: DeliveryPhase, ctx: EpisodeContext, from: string, to: string): EmailMessage {
  const { subject, headline, facts } = wordsOf(phase, ctx);
  return { to, from, subject, ...renderEmail(headline, facts) };
}

/** The Slack message of one phase of a slow or certificate notification. */
export function composeEpisodeSlack(phase: DeliveryPhase, ctx: EpisodeContext, appUrl: string): SlackMessage {
  const { subject, facts } = wordsOf(phase, ctx);
  const link = monitorPageUrl(appUrl, ctx.monitorId);
  const [label, value] = facts[1]!;
  return composeSlack({
    text: `${subject} (${ctx.monitorUrl}) ${link}`,
    headline: `*${escapeMrkdwn(subject)}*`,
    detail: `*${label}:* ${escapeMrkdwn(value)}`,
    monitorUrl: ctx.monitorUrl,
    link,
  });
}

/** The webhook `event` of a delivery: the notification's type, and `slow_resolved` for the end of a slow period. */
export function webhookEventOf(type: NotificationType, phase: DeliveryPhase): NotificationType | 'slow_resolved' {
  return type === 'slow' && phase === 'resolved' ? 'slow_resolved' : type;
}
