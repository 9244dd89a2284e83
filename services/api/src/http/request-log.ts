import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@uptime/logger';

/** A request slower than this is logged whatever its answer (docs/operations.md "Logs"). */
export const SLOW_REQUEST_MS = 1000;

/**
 * The level of a request's line. What an operator must see stays at info or above with the
 * default LOG_LEVEL: failures (error; a 503 at info, since it is expected while a dependency is
 * away or the api is starting, and its one line says why), slow requests (warn) and refusals
 * (4xx, info). A request that simply succeeded is debug: the web app's own polling made most of
 * the lines at info.
 */
export function requestLogLevel(status: number, elapsedMs: number, failed = false): 'debug' | 'info' | 'warn' | 'error' {
  if (status === 503) return 'info';
  if (failed || status >= 500) return 'error';
  if (elapsedMs > SLOW_REQUEST_MS) return 'warn';
  if (status >= 400) return 'info';
  return 'debug';
}

/** The message of a request's line that ended in an answer: a slow one says so. */
export const requestLogMessage = (level: ReturnType<typeof requestLogLevel>): string => (level === 'warn' ? 'slow request' : 'request completed');

/** When each logged request started, and its elapsed time once read: its level and message agree. */
const timings = new WeakMap<Response, { start: number; elapsed?: number }>();

/**
 * One log line per request with its request id, at `requestLogLevel()`; /healthz and /readyz are
 * not logged. pino-http serializes each request into child loggers whatever the level, so it is
 * skipped only when not even an error would be written (LOG_LEVEL fatal or silent).
 */
export function requestLogging(logger: Logger): RequestHandler {
  const log = pinoHttp<Request, Response>({
    logger,
    genReqId: (_req, res) => String(res.locals?.requestId ?? ''),
    customProps: (_req, res) => ({ request_id: (res as Response).locals?.requestId }),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    customLogLevel: (_req, res, err) => requestLogLevel(res.statusCode, elapsedOf(res), err !== undefined),
    customSuccessMessage: (_req, res) => requestLogMessage(requestLogLevel(res.statusCode, elapsedOf(res))),
    // A 503 is expected (a dependency away, or starting): its one line says why, without a stack.
    customErrorObject: (_req, res, _error, val: Record<string, unknown>) =>
      res.statusCode === 503 ? { res: val.res, responseTime: val.responseTime, reason: res.locals.unavailableReason } : val,
    customErrorMessage: (_req, res) => (res.statusCode === 503 ? 'service unavailable' : 'request errored'),
  });
  return (req, res, next) => {
    if (!logger.isLevelEnabled('error')) return next();
    timings.set(res, { start: performance.now() });
    log(req, res, next);
  };
}

/**
 * Milliseconds from the request's start to the first time this is asked (its answer's end); 0
 * for a live stream (text/event-stream), which is long by design, not slow.
 */
function elapsedOf(res: Response): number {
  const timing = timings.get(res);
  if (!timing || String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) return 0;
  timing.elapsed ??= performance.now() - timing.start;
  return timing.elapsed;
}
