import { Client } from '@sendgrid/client';
import { MailService } from '@sendgrid/mail';
import { EmailSendError, type EmailChannel, type EmailMessage } from './email-channel';

export interface SendGridOptions {
  apiKey: string;
  /** Base URL without `/v3`; mail goes to `${apiUrl}/v3/mail/send`. */
  apiUrl: string;
  /** Per-request timeout; axios (under @sendgrid/client) has none by default. */
  timeoutMs?: number;
}

/** What @sendgrid/client rejects with when the API answered (its ResponseError). */
interface SendGridResponseError {
  code: number;
  response?: { body?: unknown };
}

const isResponseError = (err: unknown): err is SendGridResponseError =>
  typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number' && 'response' in err;

/** 4xx means SendGrid judged the request itself (address, content, key); 408 and 429 are worth a retry. */
const isPermanentStatus = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;

function describeResponseError(err: SendGridResponseError): string {
  const body = err.response?.body as { errors?: { message?: string }[] } | undefined;
  const messages = (body?.errors ?? []).map((e) => e.message).filter(Boolean);
  return `SendGrid answered ${err.code}${messages.length > 0 ? `: ${messages.join('; ')}` : ''}`;
}

/** Sends through SendGrid's v3 Mail Send API. */
export class SendGridEmailChannel implements EmailChannel {
  private readonly mail: MailService;

  constructor(options: SendGridOptions) {
    // A client and mail service of our own rather than the packages' singletons, so two
    // configurations (all-in-one process, tests) never share an API key or base URL.
    const client = new Client();
    client.setApiKey(options.apiKey);
    // After setApiKey, which resets baseUrl to the region's host. The request URL is
    // '/v3/mail/send' and axios joins it to baseURL, so the path lands at `${apiUrl}/v3/mail/send`.
    client.setDefaultRequest('baseUrl', options.apiUrl);
    this.mail = new MailService();
    this.mail.setClient(client);
    this.mail.setTimeout(options.timeoutMs ?? 10_000);
  }

  async send(message: EmailMessage): Promise<void> {
    try {
      await this.mail.send({
        to: message.to,
        from: message.from,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
      });
    } catch (err) {
      if (isResponseError(err)) {
        throw new EmailSendError(describeResponseError(err), isPermanentStatus(err.code), { cause: err });
      }
      // No HTTP answer: connection refused, DNS, timeout. Transient.
      throw new EmailSendError(`SendGrid request failed: ${(err as Error).message}`, false, { cause: err });
    }
  }
}
