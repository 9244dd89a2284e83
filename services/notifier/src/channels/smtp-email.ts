import { createTransport, type Transporter } from 'nodemailer';
import { EmailSendError, type EmailChannel, type EmailMessage } from './email-channel';

/** What nodemailer attaches to its errors. */
interface SmtpError {
  code?: string;
  responseCode?: number;
  message: string;
}

/**
 * nodemailer waits minutes by default for a silent server; a notifier job should rather fail and be
 * retried. Values already in the URL (`?socketTimeout=...`) win.
 */
const DEFAULT_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function withDefaultTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [key, value] of Object.entries(DEFAULT_TIMEOUTS_MS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function isPermanentSmtpError(err: SmtpError): boolean {
  // A rejected login is a configuration problem: once the operator fixes it, retries succeed.
  if (err.code === 'EAUTH') return false;
  // 5xx replies are permanent by RFC 5321 (e.g. 550 unknown mailbox); 4xx are temporary.
  if (typeof err.responseCode === 'number') return err.responseCode >= 500;
  // Refused before any server reply: no valid recipient, unbuildable message.
  return err.code === 'EENVELOPE' || err.code === 'EMESSAGE';
}

/** Sends through an SMTP server given as `smtp://user:pass@host:port` or `smtps://...`. */
export class SmtpEmailChannel implements EmailChannel {
  readonly provider = 'smtp';
  private readonly transport: Transporter;

  constructor(smtpUrl: string) {
    this.transport = createTransport(withDefaultTimeouts(smtpUrl));
  }

  async send(message: EmailMessage): Promise<void> {
    try {
      await this.transport.sendMail(message);
    } catch (raw) {
      const err = raw as SmtpError;
      const reply = err.responseCode === undefined ? '' : ` (${err.responseCode})`;
      throw new EmailSendError(`SMTP send failed${reply}: ${err.message}`, isPermanentSmtpError(err), { cause: raw });
    }
  }
}
