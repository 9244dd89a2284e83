import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Date.now() when the whole request had arrived. */
  receivedAt: number;
}

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  /** Replace the handler (e.g. switch a target from 200 to 500). */
  respond(handler: FakeHandler): void;
  close(): Promise<void>;
}

export type FakeHandler = (req: RecordedRequest, res: ServerResponse) => void;

export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): FakeHandler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };

/**
 * A receiver asking to be left alone, as the three alert fakes can answer: a 429 or 503 with
 * whatever `Retry-After` / `X-RateLimit-Reset` values the test writes (seconds, a Unix time, an
 * HTTP date), so each form can be shown honoured on each channel.
 */
export interface BackOffMode {
  kind: 'back-off';
  status: 429 | 503;
  headers: Record<string, string>;
}

/** Answers `mode` with `body`. */
export function answerBackOff(res: ServerResponse, mode: BackOffMode, body: string, contentType = 'text/plain'): void {
  res.writeHead(mode.status, { 'content-type': contentType, ...mode.headers });
  res.end(body);
}

/** A local HTTP server on 127.0.0.1 that records requests; the stand-in for any remote site. */
export async function startFakeHttpServer(handler: FakeHandler = answer(200, 'ok')): Promise<FakeHttpServer> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        receivedAt: Date.now(),
      };
      requests.push(recorded);
      current(recorded, res);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
