import { startFakeHttpServer, type FakeHttpServer } from './fake-http-server';

export interface SentMail {
  to: string;
  from: string;
  subject: string;
  text: string;
}

export interface FakeSendGrid {
  /** Base URL to put in SENDGRID_API_URL. */
  url: string;
  apiKey: string;
  /** One entry per personalization recipient of every accepted request. */
  mails: SentMail[];
  server: FakeHttpServer;
  close(): Promise<void>;
}

interface SendGridBody {
  personalizations?: { to?: { email: string }[]; subject?: string }[];
  from?: { email: string };
  subject?: string;
  content?: { type: string; value: string }[];
}

/**
 * Speaks SendGrid's v3 `POST /v3/mail/send`: checks the bearer key and the body shape,
 * answers 202 with an empty body as SendGrid does, and records every recipient.
 */
export async function startFakeSendGrid(apiKey = 'SG.test-key'): Promise<FakeSendGrid> {
  const mails: SentMail[] = [];
  const server = await startFakeHttpServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v3/mail/send') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'not found' }] }));
      return;
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked' }] }));
      return;
    }
    let body: SendGridBody;
    try {
      body = JSON.parse(req.body) as SendGridBody;
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'Invalid JSON' }] }));
      return;
    }
    const text = body.content?.find((c) => c.type === 'text/plain')?.value ?? body.content?.[0]?.value ?? '';
    if (!body.from?.email || !body.personalizations?.length || !text) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'from, personalizations and content are required' }] }));
      return;
    }
    for (const p of body.personalizations) {
      for (const to of p.to ?? []) {
        mails.push({ to: to.email, from: body.from.email, subject: p.subject ?? body.subject ?? '', text });
      }
    }
    res.writeHead(202);
    res.end();
  });
  return { url: server.url, apiKey, mails, server, close: () => server.close() };
}
