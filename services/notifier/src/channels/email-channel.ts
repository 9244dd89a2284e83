import { SendError, type SendFailureKind } from './send-error';

export { isPermanentSendError } from './send-error';

/** One email to one recipient, as the notifier composes it. */
export interface EmailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header fields (List-Unsubscribe and List-Unsubscribe-Post of a status page's emails). */
  headers?: Record<string, string>;
}

/** A way to hand an email to a mail transport (SendGrid, SMTP, the log). */
export interface EmailChannel {
  /**
   * Whose back-off a 429/503 sets (`sendgrid`, `smtp`): every email to that provider waits for it.
   * Absent for transports that never ask to wait.
   */
  readonly provider?: string;
  /** True when the email only goes to the log (no mail transport configured): recorded as `logged`, never as sent. */
  readonly logsOnly?: boolean;
  /** Resolves once the transport accepted the email; rejects with an {@link EmailSendError} otherwise. */
  send(mail: EmailMessage): Promise<void>;
}

/**
 * Why a transport refused an email. A permanent refusal (a bad address, a request the provider
 * rejects as invalid) is recorded as failed and never retried, since sending it again cannot
 * succeed; anything else (timeouts, 5xx, 429, network) is retried.
 */
export class EmailSendError extends SendError {
  constructor(message: string, kind: boolean | SendFailureKind, options: { cause?: unknown; notBefore?: Date | null } = {}) {
    super(message, typeof kind === 'boolean' ? (kind ? 'permanent' : 'transient') : kind, options);
    this.name = 'EmailSendError';
  }
}
