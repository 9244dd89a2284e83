import type { CertificateAlert } from '../alert';
import type { AlertKindSpec } from './alert-kind';
import { emailOf, slackOf, type AlertWords } from './messages';

const DAY_MS = 86_400_000;

/**
 * How long the certificate had left when the alert opened, in words: "has expired", "expires in
 * less than a day", "expires in 3 days" (rounded). Measured from the check that found it under the
 * limit, so every message of one notification says the same.
 */
export function certificateCountdown(alert: Pick<CertificateAlert, 'certificateExpiresAt' | 'startedAt'>): string {
  const left = (alert.certificateExpiresAt?.getTime() ?? 0) - alert.startedAt.getTime();
  if (left <= 0) return 'has expired';
  if (left < DAY_MS) return 'expires in less than a day';
  const days = Math.round(left / DAY_MS);
  return `expires in ${days} day${days === 1 ? '' : 's'}`;
}

function wordsOf(alert: CertificateAlert): AlertWords {
  const name = alert.monitorName;
  const countdown = certificateCountdown(alert);
  return {
    subject: `[CERT] ${name}: certificate ${countdown}`,
    headline: `The TLS certificate of monitor "${name}" ${countdown}.`,
    facts: [
      ['URL', alert.monitorUrl],
      ['Expires at', alert.certificateExpiresAt?.toISOString() ?? 'unknown'],
      ['Alert limit', `${alert.certificateExpiryDays ?? '?'} days`],
    ],
  };
}

/**
 * The recorded certificate was under the monitor's `certificate_expiry_days`: one `certificate`
 * notification. Its end (the certificate changed) is recorded and told to nobody, and one already
 * replaced when the notifier got to it is not worth a message (docs/notifications.md).
 */
export const certificate: AlertKindSpec<CertificateAlert> = {
  contextOf: (base, row) => ({
    ...base,
    kind: 'certificate',
    certificateExpiresAt: row.certificate_expires_at,
    certificateExpiryDays: row.certificate_expiry_days,
  }),
  notificationType: 'certificate',
  message: (alert) =>
    `Monitor "${alert.monitorName}" (${alert.monitorUrl}): its TLS certificate ${certificateCountdown(alert)} (${alert.certificateExpiresAt?.toISOString() ?? 'unknown'})`,
  errorDetails: () => null,
  isSuppressedByDependencies: false,
  opensWhenOver: false,
  end: { tells: 'nothing' },
  words: (_target, alert) => wordsOf(alert),
  email: (_target, alert, from, to) => emailOf(wordsOf(alert), from, to),
  slack: (_target, alert, appUrl) => slackOf(wordsOf(alert), alert, appUrl),
};
