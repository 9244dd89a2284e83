import type { DeliveryPhase } from '@uptime/db';
import type { SlowAlert } from '../alert';
import { formatDuration } from '../duration';
import type { AlertKindSpec } from './alert-kind';
import { emailOf, ms, slackOf, type AlertWords } from './messages';

const slowSeconds = (alert: SlowAlert): number =>
  alert.duration ?? Math.round(((alert.resolvedAt ?? new Date()).getTime() - alert.startedAt.getTime()) / 1000);

/** A slow period starting (`opened`) or ending (`resolved`). */
function wordsOf(phase: DeliveryPhase, alert: SlowAlert): AlertWords {
  const name = alert.monitorName;
  if (phase === 'resolved') {
    return {
      subject: `[OK] ${name} is no longer slow`,
      headline: `Monitor "${name}" is no longer slow.`,
      facts: [
        ['URL', alert.monitorUrl],
        ['Slow for', formatDuration(slowSeconds(alert))],
        ['Slow since', alert.startedAt.toISOString()],
        ['Ended at', (alert.resolvedAt ?? new Date()).toISOString()],
      ],
    };
  }
  return {
    subject: `[SLOW] ${name} is slow`,
    headline: `Monitor "${name}" is responding slowly.`,
    facts: [
      ['URL', alert.monitorUrl],
      ['Response time', ms(alert.responseTime)],
      ['Threshold', ms(alert.responseTimeThreshold)],
      ['Slow since', alert.startedAt.toISOString()],
    ],
  };
}

/**
 * The monitor read `status_reason: "slow"` with `alert_on_slow` on: one `slow` notification, sent
 * even when handled after the period ended (start and end are both told), and a "no longer slow"
 * message at its end while `alert_on_slow` is still on (docs/notifications.md).
 */
export const slow: AlertKindSpec<SlowAlert> = {
  contextOf: (base, row) => ({
    ...base,
    kind: 'slow',
    alertOnSlow: row.alert_on_slow,
    responseTime: row.response_time,
    responseTimeThreshold: row.response_time_threshold,
  }),
  notificationType: 'slow',
  message: (alert) =>
    `Monitor "${alert.monitorName}" (${alert.monitorUrl}) is slow: responded in ${ms(alert.responseTime)}, over its ${ms(alert.responseTimeThreshold)} threshold`,
  errorDetails: () => null,
  isSuppressedByDependencies: false,
  opensWhenOver: true,
  end: { tells: 'resolved-message', webhookEvent: 'slow_resolved', isSent: (alert) => alert.alertOnSlow },
  words: (target, alert) => wordsOf(target.phase, alert),
  email: (target, alert, from, to) => emailOf(wordsOf(target.phase, alert), from, to),
  slack: (target, alert, appUrl) => slackOf(wordsOf(target.phase, alert), alert, appUrl),
};
