import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '@uptime/config';

/** What Node's HTTP parser refused, as the status the client gets. */
function statusOf(err: NodeJS.ErrnoException): { status: number; message: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: 'The request line or headers are too large' };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request did not arrive in time' };
  return { status: 400, message: 'The request is not valid HTTP (malformed request line, header name or value)' };
}

/**
 * Answers what Node's HTTP parser refuses before Express sees it (a 20 KB query string, a NUL in
 * a header, a bad header name, a request too slow to arrive) in the API's error envelope with an
 * `X-Request-Id`, as every other answer, instead of Node's bare status line.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = statusOf(err);
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: 'VALIDATION_ERROR', message }, meta: { timestamp: new Date().toISOString(), request_id: requestId } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** How often Node looks for requests past their deadlines (its default, 30 s, would add up to 30 s to each). */
const DEADLINE_CHECK_MS = 1000;

/**
 * The API's HTTP server. Slow clients cannot hold it: request headers must arrive within
 * `headersMs`, a whole request with its body within `requestMs`, and an idle keep-alive
 * connection is closed after `keepAliveMs` (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS,
 * HTTP_KEEP_ALIVE_TIMEOUT_MS); what its parser refuses is answered in the error envelope.
 */
export function createApiServer(app: RequestListener, limits: Config['httpTimeouts']): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: DEADLINE_CHECK_MS,
    },
    app,
  );
  server.on('clientError', answerClientError);
  return server;
}
