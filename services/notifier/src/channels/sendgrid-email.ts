import { answerFailure, isSuccess } from '../outbound/answer-failure';
import { postJson } from '../outbound/post-json';
import { EmailSendError, type EmailChannel, type EmailMessage } from './email-channel';
import { SendError } from './send-error';

export interface SendGridOptions {
  apiKey: string;
  /** Base URL without `/v3`; mail goes to `${apiUrl}/v3/mail/send`. */
  apiUrl: string;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

function describeAnswer(status: number, body: string): string {
  let messages: string[] = [];
  try {
    const parsed = JSON.parse(body) as { errors?: { message?: string }[] };
    messages = (parsed.errors ?? []).map((e) => e.message ?? '').filter(Boolean);
  } catch {
    // not JSON: the status alone
  }
  return `SendGrid answered ${status}${messages.length > 0 ? `: ${messages.join('; ')}` : ''}`;
}

/**
 * Sends through SendGrid's v3 Mail Send API. Spoken directly over HTTP rather than through
 * @sendgrid/mail so a timeout can be told apart by whether the request was written (ambiguous) and
 * the back-off headers of a 429 are read.
 */
export class SendGridEmailChannel implements EmailChannel {
  readonly provider = 'sendgrid';
  private readonly endpoint: string;

  constructor(private readonly options: SendGridOptions) {
    this.endpoint = `${options.apiUrl.replace(/\/+$/, '')}/v3/mail/send`;
  }

  async send(message: EmailMessage): Promise<void> {
    const content = [{ type: 'text/plain', value: message.text }];
    if (message.html !== undefined) content.push({ type: 'text/html', value: message.html });
    const body = JSON.stringify({
      personalizations: [{ to: [{ email: message.to }] }],
      from: { email: message.from },
      subject: message.subject,
      content,
      ...(message.headers ? { headers: message.headers } : {}),
    });
    let answer;
    try {
      answer = await postJson({
        url: this.endpoint,
        body,
        headers: { authorization: `Bearer ${this.options.apiKey}` },
        ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      });
    } catch (err) {
      const cause = err as SendError;
      throw new EmailSendError(`SendGrid request failed: ${cause.message}`, cause.kind ?? 'transient', { cause });
    }
    if (isSuccess(answer.status)) return;
    throw answerFailure(answer, describeAnswer(answer.status, answer.body), (msg, kind, opts) => new EmailSendError(msg, kind, opts));
  }
}
