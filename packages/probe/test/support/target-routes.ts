import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './test-servers';

/** The fake target site used by the probe tests; each path is one behaviour. */

export const BIG_BODY_BYTES = 10 * 1024 * 1024;
/** Where the late marker of /big starts: well past the 1 MiB cap. */
export const LATE_MARKER_OFFSET = 1024 * 1024 + 4096;
export const JSON_DOCUMENT = {
  status: 'ok',
  count: 3,
  ratio: 0.5,
  healthy: true,
  nothing: null,
  nested: { items: [{ name: 'alpha' }, { name: 'beta' }] },
};

/** Whether the client hung up on the endless body (rather than leaving it stalled). */
export const endlessStream = { started: false, closed: false };

const flakyCounts = new Map<string, number>();

export function targetRoutes(req: RecordedRequest, res: ServerResponse): void {
  const url = new URL(req.url, 'http://target.test');
  const param = (name: string): string => url.searchParams.get(name) ?? '';
  switch (url.pathname) {
    case '/text':
      return text(res, 200, 'Welcome to the service. All systems operational.');
    case '/echo':
      return json(res, 200, { method: req.method, headers: req.headers, body: req.body });
    case '/status':
      return text(res, Number(param('code')), `status ${param('code')}`);
    case '/json':
      return json(res, 200, JSON_DOCUMENT);
    case '/invalid-json':
      return text(res, 200, '{"status": "ok"', 'application/json');
    case '/redirect':
      res.writeHead(Number(param('code') || 302), { location: param('to') });
      return void res.end();
    case '/loop':
      res.writeHead(302, { location: '/loop' });
      return void res.end();
    case '/chain': {
      // /chain?n=3 redirects 3 times, then answers 200.
      const left = Number(param('n'));
      if (left <= 0) return text(res, 200, 'end of chain');
      res.writeHead(302, { location: `/chain?n=${left - 1}` });
      return void res.end();
    }
    case '/flaky': {
      // Fails with 500 for the first `failures` requests of a `key`, then answers 200.
      const seen = (flakyCounts.get(param('key')) ?? 0) + 1;
      flakyCounts.set(param('key'), seen);
      return seen <= Number(param('failures')) ? text(res, 500, 'failing') : text(res, 200, 'recovered');
    }
    case '/stall':
      return; // never answers
    case '/stall-body':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.write('partial body, then nothing');
    case '/big':
      return streamBigBody(res);
    case '/endless':
      return streamEndlessBody(res);
    default:
      return text(res, 404, 'not found');
  }
}

function text(res: ServerResponse, status: number, body: string, contentType = 'text/plain'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  text(res, status, JSON.stringify(body), 'application/json');
}

/** 10 MiB: "EARLY-MARKER" first, "LATE-MARKER" after the 1 MiB cap, filler elsewhere. */
function streamBigBody(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(BIG_BODY_BYTES) });
  const chunkSize = 64 * 1024;
  let written = 0;
  const pump = (): void => {
    while (written < BIG_BODY_BYTES && !res.destroyed) {
      const chunk = Buffer.alloc(Math.min(chunkSize, BIG_BODY_BYTES - written), 'a');
      if (written === 0) chunk.write('EARLY-MARKER');
      if (written <= LATE_MARKER_OFFSET && LATE_MARKER_OFFSET < written + chunk.length) chunk.write('LATE-MARKER', LATE_MARKER_OFFSET - written);
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** A body that never ends: only a reader that stops on its own can finish the check. */
function streamEndlessBody(res: ServerResponse): void {
  endlessStream.started = true;
  endlessStream.closed = false;
  res.on('close', () => (endlessStream.closed = true));
  res.writeHead(200, { 'content-type': 'text/plain' });
  const filler = Buffer.alloc(64 * 1024, 'z');
  const first = Buffer.from(filler);
  first.write('ENDLESS-START');
  let chunk = first;
  const pump = (): void => {
    while (!res.destroyed) {
      const ok = res.write(chunk);
      chunk = filler; // only the first chunk carries the marker
      if (!ok) return void res.once('drain', pump);
    }
  };
  pump();
}
