import type { ServerResponse } from 'node:http';
import { startFakeHttpServer, type FakeHttpServer, type RecordedRequest } from '../fake-http-server';

/**
 * How a channel fake answers a request it accepts: `ok` (the service's success), `error` (500),
 * `rate-limited` (the service's 429, with its Retry-After), `hang` (never answers). Requests the
 * real service would refuse (bad credential, malformed payload) are refused whatever the mode.
 */
export type FakeServiceMode = { kind: 'ok' } | { kind: 'error' } | { kind: 'rate-limited'; retryAfterSeconds: number } | { kind: 'hang' };

/** A fake's answer: status, JSON or text body, extra headers. */
export interface FakeAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What a service fake decides of one request: accepted (recorded, answered by the mode) or refused as the service would. */
export type Verdict<M> = { accepted: M; answer: FakeAnswer } | { refused: string; answer: FakeAnswer };

export interface FakeService<M> {
  /** What a channel's config or a base-URL variable is set to. */
  url: string;
  /** Every message accepted and answered with success. */
  received: M[];
  /** Requests refused, with why. */
  refused: Array<{ reason: string; request: RecordedRequest }>;
  server: FakeHttpServer;
  setMode(mode: FakeServiceMode): void;
  close(): Promise<void>;
}

export function reply(res: ServerResponse, answer: FakeAnswer): void {
  const isText = typeof answer.body === 'string';
  res.writeHead(answer.status, { 'content-type': isText ? 'text/plain' : 'application/json', ...answer.headers });
  res.end(answer.body === undefined ? '' : isText ? answer.body : JSON.stringify(answer.body));
}

/** The request's body as a JSON object, or null. */
export function jsonBody(req: RecordedRequest): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(req.body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const isText = (value: unknown, max: number, min = 1): value is string => typeof value === 'string' && value.length >= min && value.length <= max;
export const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A local server speaking one service's API: `judge` checks a request as the service does; the
 * mode decides how an accepted one is answered (`rateLimited` is the service's own 429, `error`
 * a 500 that records nothing).
 */
export async function startFakeService<M>(options: {
  judge(req: RecordedRequest): Verdict<M>;
  rateLimited(retryAfterSeconds: number): FakeAnswer;
  url(serverUrl: string): string;
}): Promise<FakeService<M>> {
  const received: M[] = [];
  const refused: FakeService<M>['refused'] = [];
  let mode: FakeServiceMode = { kind: 'ok' };
  const server = await startFakeHttpServer((req, res) => {
    if (mode.kind === 'hang') return;
    const verdict = req.method === 'POST' ? options.judge(req) : { refused: `method ${req.method}`, answer: { status: 405, body: 'method not allowed' } };
    if ('refused' in verdict) {
      refused.push({ reason: verdict.refused, request: req });
      return reply(res, verdict.answer);
    }
    if (mode.kind === 'error') return reply(res, { status: 500, body: 'internal error' });
    if (mode.kind === 'rate-limited') return reply(res, options.rateLimited(mode.retryAfterSeconds));
    received.push(verdict.accepted);
    reply(res, verdict.answer);
  });
  return {
    url: options.url(server.url),
    received,
    refused,
    server,
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
