import type { ServerResponse } from 'node:http';
import { answerBackOff, startFakeHttpServer, type BackOffMode, type FakeHttpServer, type RecordedRequest } from './fake-http-server';

export interface SentMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  /** The request's `headers` (SendGrid's custom email headers, such as List-Unsubscribe), when it had any. */
  headers?: Record<string, string>;
}

/**
 * How the fake answers a valid request:
 * - `accept`: 202, as SendGrid does (the default);
 * - `server-error`: a 5xx (500 by default), nothing accepted;
 * - `rate-limited`: 429 with `X-RateLimit-Reset` (Unix seconds) and/or `Retry-After` (seconds)
 *   until `resetAt`, then accepts again;
 * - `back-off`: a 429 or 503 with exactly the headers given (each form of Retry-After and
 *   X-RateLimit-Reset), nothing accepted;
 * - `bad-request`: 400 with SendGrid's error body;
 * - `slow`: accepts, answering 202 only after `delayMs`;
 * - `hang`: accepts the mail (it is recorded, as SendGrid would deliver it) and never answers.
 */
export type FakeSendGridMode =
  | { kind: 'accept' }
  | { kind: 'server-error'; status?: number }
  | { kind: 'rate-limited'; resetAt: Date; headers?: ('retry-after' | 'x-ratelimit-reset')[] }
  | BackOffMode
  | { kind: 'bad-request'; message?: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'hang' };

export interface FakeSendGrid {
  /** Base URL to put in SENDGRID_API_URL. */
  url: string;
  apiKey: string;
  /** One entry per personalization recipient of every accepted request. */
  mails: SentMail[];
  server: FakeHttpServer;
  /** Switches how the next requests are answered. */
  setMode(mode: FakeSendGridMode): void;
  /** Requests being held open (`hang`, `slow`) right now. */
  readonly openRequests: number;
  close(): Promise<void>;
}

interface SendGridBody {
  personalizations?: { to?: { email: string }[]; subject?: string }[];
  from?: { email: string };
  subject?: string;
  content?: { type: string; value: string }[];
  headers?: Record<string, string>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

function parseMails(req: RecordedRequest): SentMail[] | string {
  let body: SendGridBody;
  try {
    body = JSON.parse(req.body) as SendGridBody;
  } catch {
    return 'Invalid JSON';
  }
  const text = body.content?.find((c) => c.type === 'text/plain')?.value ?? body.content?.[0]?.value ?? '';
  const from = body.from?.email;
  if (!from || !body.personalizations?.length || !text) return 'from, personalizations and content are required';
  return body.personalizations.flatMap((p) =>
    (p.to ?? []).map((to) => ({ to: to.email, from, subject: p.subject ?? body.subject ?? '', text, ...(body.headers ? { headers: body.headers } : {}) })),
  );
}

/**
 * Speaks SendGrid's v3 `POST /v3/mail/send`: checks the bearer key and the body shape, answers
 * as the current {@link FakeSendGridMode} says (202 with an empty body by default, as SendGrid
 * does), and records every recipient it accepted.
 */
export async function startFakeSendGrid(apiKey = 'SG.test-key'): Promise<FakeSendGrid> {
  const mails: SentMail[] = [];
  let mode: FakeSendGridMode = { kind: 'accept' };
  let openRequests = 0;
  const server = await startFakeHttpServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v3/mail/send') return json(res, 404, { errors: [{ message: 'not found' }] });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return json(res, 401, { errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked' }] });
    }
    const parsed = parseMails(req);
    if (typeof parsed === 'string') return json(res, 400, { errors: [{ message: parsed }] });

    const current = mode;
    if (current.kind === 'rate-limited' && Date.now() < current.resetAt.getTime()) {
      const which = current.headers ?? ['x-ratelimit-reset'];
      const headers: Record<string, string> = {};
      if (which.includes('x-ratelimit-reset')) headers['x-ratelimit-reset'] = String(Math.ceil(current.resetAt.getTime() / 1000));
      if (which.includes('retry-after')) headers['retry-after'] = String(Math.ceil((current.resetAt.getTime() - Date.now()) / 1000));
      return json(res, 429, { errors: [{ message: 'too many requests' }] }, headers);
    }
    if (current.kind === 'back-off') return answerBackOff(res, current, JSON.stringify({ errors: [{ message: 'try again later' }] }), 'application/json');
    if (current.kind === 'server-error') return json(res, current.status ?? 500, { errors: [{ message: 'internal error' }] });
    if (current.kind === 'bad-request') return json(res, 400, { errors: [{ message: current.message ?? 'Does not contain a valid address.' }] });

    mails.push(...parsed);
    if (current.kind === 'hang') {
      openRequests += 1;
      res.on('close', () => (openRequests -= 1));
      return;
    }
    const accept = (): void => {
      res.writeHead(202);
      res.end();
    };
    if (current.kind === 'slow') {
      openRequests += 1;
      res.on('close', () => (openRequests -= 1));
      setTimeout(accept, current.delayMs).unref();
      return;
    }
    accept();
  });
  return {
    url: server.url,
    apiKey,
    mails,
    server,
    setMode: (next) => {
      mode = next;
    },
    get openRequests() {
      return openRequests;
    },
    close: () => server.close(),
  };
}
