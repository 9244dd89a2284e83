/** One email to one recipient, as the notifier composes it. */
export interface EmailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  html?: string;
}

/** A way to hand an email to a mail transport (SendGrid, SMTP, the log). */
export interface EmailChannel {
  /** Resolves once the transport accepted the email; rejects with an {@link EmailSendError} otherwise. */
  send(mail: EmailMessage): Promise<void>;
}

/**
 * Why a transport refused an email. `isPermanent` decides what the notifier does: a permanent
 * refusal (a bad address, a request the provider rejects as invalid) is recorded as failed and never
 * retried, since sending it again cannot succeed; anything else (timeouts, 5xx, 429, network) is
 * retried by the queue.
 */
export class EmailSendError extends Error {
  constructor(
    message: string,
    readonly isPermanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmailSendError';
  }
}

/** True for errors that sending again cannot fix. Unknown errors count as transient: retrying is the safe side. */
export const isPermanentSendError = (err: unknown): boolean => err instanceof EmailSendError && err.isPermanent;
