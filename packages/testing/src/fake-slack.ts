import { answerBackOff, startFakeHttpServer, type BackOffMode, type FakeHttpServer } from './fake-http-server';

/**
 * How the fake answers: `ok` (200 "ok", as Slack does), `error` (500), `rate-limited` (429 +
 * Retry-After), `back-off` (429 or 503 with the headers given), `hang`.
 */
export type FakeSlackMode = { kind: 'ok' } | { kind: 'error' } | { kind: 'rate-limited'; retryAfterSeconds: number } | BackOffMode | { kind: 'hang' };

export interface SlackPost {
  path: string;
  text: string;
  blocks: unknown[];
}

export interface FakeSlack {
  /** An incoming-webhook URL on the fake (`/services/T.../B.../secret`). */
  webhookUrl: string;
  /** Every well-formed message it answered `ok` to. */
  messages: SlackPost[];
  server: FakeHttpServer;
  setMode(mode: FakeSlackMode): void;
  close(): Promise<void>;
}

/**
 * Speaks Slack's incoming webhooks: `POST /services/...` with a JSON body that has `text` or
 * `blocks`; answers 200 `ok`, 400 `invalid_payload` for anything else, or fails on demand.
 */
export async function startFakeSlack(): Promise<FakeSlack> {
  const messages: SlackPost[] = [];
  let mode: FakeSlackMode = { kind: 'ok' };
  const server = await startFakeHttpServer((req, res) => {
    if (req.method !== 'POST' || !req.url.startsWith('/services/')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no_service');
      return;
    }
    if (mode.kind === 'hang') return;
    if (mode.kind === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal_error');
      return;
    }
    if (mode.kind === 'rate-limited') {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': String(mode.retryAfterSeconds) });
      res.end('rate_limited');
      return;
    }
    if (mode.kind === 'back-off') return answerBackOff(res, mode, 'rate_limited');
    let body: { text?: unknown; blocks?: unknown };
    try {
      body = JSON.parse(req.body) as { text?: unknown; blocks?: unknown };
    } catch {
      body = {};
    }
    if (typeof body.text !== 'string' && !Array.isArray(body.blocks)) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('invalid_payload');
      return;
    }
    messages.push({ path: req.url, text: typeof body.text === 'string' ? body.text : '', blocks: Array.isArray(body.blocks) ? body.blocks : [] });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  return {
    webhookUrl: `${server.url}/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`,
    messages,
    server,
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
