import type { Config } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import type { EmailChannel } from './email-channel';
import { LogEmailChannel } from './log-email';
import { SendGridEmailChannel } from './sendgrid-email';
import { SmtpEmailChannel } from './smtp-email';

/** The mail transport the configuration asks for: SendGrid, else SMTP, else the log (docs/configuration.md). */
export function createEmailChannel(mail: Config['mail'], logger: Logger): EmailChannel {
  if (mail.sendgrid) {
    logger.info({ transport: 'sendgrid', apiUrl: mail.sendgrid.apiUrl }, 'email transport selected');
    return new SendGridEmailChannel(mail.sendgrid);
  }
  if (mail.smtpUrl) {
    // The URL may carry a password: log the host only.
    logger.info({ transport: 'smtp', host: new URL(mail.smtpUrl).host }, 'email transport selected');
    return new SmtpEmailChannel(mail.smtpUrl);
  }
  logger.warn({ transport: 'log' }, 'no email transport configured: emails will only be logged');
  return new LogEmailChannel(logger);
}
