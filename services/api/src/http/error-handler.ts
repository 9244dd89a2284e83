import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, NotFoundError, type ErrorCode } from '@uptime/errors';
import type { Logger } from '@uptime/logger';
import { metaFor } from './envelope';

interface BodyParserError {
  type?: string;
  status?: number;
  /** Set by http-errors: the error is the client's and its message may be shown. */
  expose?: boolean;
}

/** Postgres data exceptions (class 22) caused by a value, not by the server. */
const POSTGRES_DATA_ERRORS: ReadonlySet<string> = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05', '22023']);

/** Errors of our backing services: answered 503, never 500, and never as the caller's fault. */
function isBackendUnavailable(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? '';
  const message = err instanceof Error ? err.message : '';
  return (
    // 57014: statement_timeout (docs/reliability.md); 57P01/57P03: shutting down or starting.
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE', '57014', '57P01', '57P03', '08006', '08001'].includes(code) ||
    /Connection is closed|connect ECONNREFUSED|timeout exceeded when trying to connect|Connection terminated|Stream isn't writeable|Query read timeout|Command timed out|read ECONNRESET|Redis unavailable/.test(
      message,
    )
  );
}

function classify(err: unknown): { status: number; code: ErrorCode; message: string; details?: Record<string, unknown> } | null {
  if (err instanceof DomainError) return { status: err.status, code: err.code, message: err.message, details: err.details };
  const parser = err as BodyParserError;
  if (parser.type === 'entity.too.large') return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 1 MiB' };
  if (parser.type === 'entity.parse.failed')
    return { status: 400, code: 'VALIDATION_ERROR', message: 'Malformed JSON body', details: { body: ['must be valid JSON'] } };
  if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported')
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported body encoding' };
  // Any other body-reading failure of the client's making (a corrupt gzip stream, an aborted
  // upload, a wrong Content-Length) is a 4xx from body-parser, never a 500.
  if (parser.expose === true && parser.status === 413)
    return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 1 MiB' };
  if (parser.expose === true && parser.status === 415)
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported request body' };
  if (parser.expose === true && parser.status === 400) {
    return {
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'The request body could not be read',
      details: { body: ['could not be read'] },
    };
  }
  // Express could not decode a path parameter (`/monitors/%FF`): the client's malformed URL.
  if (err instanceof URIError)
    return { status: 400, code: 'VALIDATION_ERROR', message: 'The URL holds a malformed percent-escape', details: { path: ['malformed percent-escape'] } };
  // A value Postgres refuses as data (out of range, malformed, NUL, too long) came from the
  // request: a field whose validation missed a bound is still the client's 400, never a 500.
  if (POSTGRES_DATA_ERRORS.has((err as { code?: string }).code ?? ''))
    return { status: 400, code: 'VALIDATION_ERROR', message: 'A value in the request is out of range or malformed', details: { body: ['a value is out of range or malformed'] } };
  if (isBackendUnavailable(err))
    return { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'A backing service is unavailable, try again shortly' };
  return null;
}

export interface ErrorHandlerOptions {
  /** Told when a request failed because Postgres or Redis did not serve it. */
  onBackendUnavailable?: () => void;
}

/**
 * The one place an error becomes a response (docs/api.md). Never leaks stacks or SQL. A 503 is
 * expected (a dependency is away, or the process is starting): the request log line says so at
 * info, with the reason, and nothing else is logged; any other 5xx is an error, with its stack.
 */
export function errorHandler(logger: Logger, options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const known = classify(err);
    if (known?.status === 503) {
      res.locals.unavailableReason = err instanceof Error ? err.message : String(err);
      if (!(err instanceof DomainError)) options.onBackendUnavailable?.();
    } else if (!known || known.status >= 500) {
      logger.error({ err, request_id: res.locals.requestId, method: req.method, url: req.originalUrl }, 'request failed');
    }
    const { status, code, message, details } = known ?? { status: 500, code: 'INTERNAL_ERROR' as const, message: 'Internal server error' };
    if (status === 503) res.setHeader('Retry-After', '5');
    res.status(status).json({ error: details ? { code, message, details } : { code, message }, meta: metaFor(res) });
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError('route', `${req.method} ${req.path}`));
};
