import type { EmailChannel, EmailMessage } from './email-channel';

/** The one logger method this channel needs; a pino Logger fits. */
export interface InfoLogger {
  info(details: Record<string, unknown>, message: string): void;
}

/**
 * Used when neither SendGrid nor SMTP is configured (local use, a fresh self-hosted install):
 * the email is written to the log at info so alerts stay visible. Its delivery is recorded as
 * done, marked `logged` (the API and the web app say "logged (no mail transport)", not "Sent").
 */
export class LogEmailChannel implements EmailChannel {
  readonly logsOnly = true;

  constructor(private readonly logger: InfoLogger) {}

  async send(message: EmailMessage): Promise<void> {
    this.logger.info(
      { email: { to: message.to, from: message.from, subject: message.subject, text: message.text, headers: message.headers } },
      'email not sent: no mail transport configured (set SENDGRID_API_KEY or SMTP_URL)',
    );
  }
}
