import { createHmac, timingSafeEqual } from 'node:crypto';
import { answerBackOff, startFakeHttpServer, type BackOffMode, type FakeHttpServer, type RecordedRequest } from './fake-http-server';

/**
 * `ok` (204), `error` (500), `rate-limited` (429 + Retry-After), `back-off` (429 or 503 with the
 * headers given), `gone` (410), `hang` (never answers).
 */
export type FakeWebhookMode =
  | { kind: 'ok' }
  | { kind: 'error' }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  | BackOffMode
  | { kind: 'gone' }
  | { kind: 'hang' };

export interface ReceivedWebhook {
  event: string;
  deliveryId: string;
  timestamp: number;
  body: Record<string, unknown>;
}

export interface FakeWebhookReceiver {
  url: string;
  /** The key it verifies signatures with; set it to the monitor's `webhook_secret`. */
  secret: string;
  /** Every request whose signature verified and that it answered 2xx to. */
  received: ReceivedWebhook[];
  /** Requests refused for a missing or wrong signature or header. */
  rejected: RecordedRequest[];
  server: FakeHttpServer;
  setMode(mode: FakeWebhookMode): void;
  close(): Promise<void>;
}

/**
 * A receiver written the way docs/webhooks.md tells users to write one: it recomputes
 * HMAC-SHA256(secret, X-Uptime-Timestamp + "." + raw body), compares it in constant time with
 * X-Uptime-Signature, refuses timestamps more than 5 minutes off, and answers 401 otherwise.
 */
export async function startFakeWebhookReceiver(secret = ''): Promise<FakeWebhookReceiver> {
  const receiver = { secret } as FakeWebhookReceiver;
  const received: ReceivedWebhook[] = [];
  const rejected: RecordedRequest[] = [];
  let mode: FakeWebhookMode = { kind: 'ok' };
  const server = await startFakeHttpServer((req, res) => {
    if (mode.kind === 'hang') return;
    const header = (name: string): string => String(req.headers[name] ?? '');
    const timestamp = Number(header('x-uptime-timestamp'));
    const expected = `sha256=${createHmac('sha256', receiver.secret).update(`${header('x-uptime-timestamp')}.${req.body}`).digest('hex')}`;
    const given = header('x-uptime-signature');
    const isSigned = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    const isFresh = Number.isInteger(timestamp) && Math.abs(Date.now() / 1000 - timestamp) <= 300;
    if (!isSigned || !isFresh || header('content-type') !== 'application/json' || !header('x-uptime-delivery') || !header('x-uptime-event')) {
      rejected.push(req);
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('bad signature');
      return;
    }
    if (mode.kind === 'error' || mode.kind === 'gone') {
      res.writeHead(mode.kind === 'error' ? 500 : 410, { 'content-type': 'text/plain' });
      res.end(mode.kind);
      return;
    }
    if (mode.kind === 'rate-limited') {
      res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': String(mode.retryAfterSeconds) });
      res.end('slow down');
      return;
    }
    if (mode.kind === 'back-off') return answerBackOff(res, mode, 'slow down');
    received.push({
      event: header('x-uptime-event'),
      deliveryId: header('x-uptime-delivery'),
      timestamp,
      body: JSON.parse(req.body) as Record<string, unknown>,
    });
    res.writeHead(204);
    res.end();
  });
  return Object.assign(receiver, {
    url: `${server.url}/hooks/uptime`,
    received,
    rejected,
    server,
    setMode: (next: FakeWebhookMode) => {
      mode = next;
    },
    close: () => server.close(),
  });
}
