import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { DomainError } from '@uptime/errors';
import { assignRequestId } from '../http/request-context';
import { requestLogLevel, requestLogMessage } from '../http/request-log';
import type { PingKind } from './heartbeat-pings.repository';
import { PING_BODY_MAX_BYTES, PingBodyTooLargeError, readPingBody, type PingBody } from './ping-body';
import type { PingBatcher } from './ping-batcher';
import type { IpWindow } from './ping-rate';

/** The longest token looked up: anything longer is no token of ours, and is cut so the statement stays as cheap. */
const TOKEN_MAX_LENGTH = 64;
const USER_AGENT_MAX_LENGTH = 512;
/**
 * heartbeat_pings.source_ip's length. Under TRUST_PROXY the address is what X-Forwarded-For says,
 * any text: one too long would fail the whole batch's statement, every ping of it with it.
 */
const SOURCE_IP_MAX_LENGTH = 64;

/** `/ping/{token}` or `/ping/{token}/{signal}`, a trailing slash allowed, any case of `ping`, as Express's routes matched them. */
const PING_PATH = /^\/ping\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?|$)/i;

/** What the part after the token says: nothing (success), start, fail or an exit status 0..255; null: no such route. */
function kindOf(signal: string | undefined): { kind: PingKind; exitStatus: number | null } | null {
  if (signal === undefined) return { kind: 'success', exitStatus: null };
  if (signal === 'start' || signal === 'fail') return { kind: signal, exitStatus: null };
  if (/^\d{1,3}$/.test(signal) && Number(signal) <= 255) return { kind: 'exit', exitStatus: Number(signal) };
  return null;
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

const EMPTY_BODY: PingBody = { text: null, size: 0, truncated: false };

export interface PingRoutesDeps {
  batcher: PingBatcher;
  logger: Logger;
  metrics: ServiceMetrics;
  /** The app's dependency gate: 503 while Postgres or Redis is known away (docs/reliability.md). */
  gate: RequestHandler;
}

/**
 * Where the routes are mounted: `first` in the app, taking the requests the predicate accepts
 * (its host, its scheme); or `false`, after the app's middleware (request id, metrics, log,
 * gate, HTTPS redirect, a page's own host), for the pings the first mount left.
 */
export interface PingMount {
  first: ((req: Request) => boolean) | false;
}

/**
 * `/ping/{token}`, `/start`, `/fail` and `/{exit status}` on GET, POST and HEAD
 * (docs/heartbeats.md): no caller, no session, no CSRF check, since a cron line pings with curl
 * or wget. Mounted first in the app: a ping needs none of the app's middleware, whose chain
 * (pino-http above all) was about 40 % of the API's CPU per ping (docs/capacity.md,
 * "Heartbeats"); so this gives the request its id, records the request's duration metric and
 * writes the request's log line itself, at the levels of `requestLogLevel()`. A request it does
 * not own (another method or path, a page's own host, plain HTTP under REQUIRE_HTTPS) goes on
 * through the app, and is answered as before.
 *
 * A ping is counted (per token, per IP) and written with the others of its event-loop turn
 * (`PingBatcher`): the answer comes once its statement committed, never waits for the state to
 * change, and takes no lock a step holds (docs/heartbeats.md, "How it is built"). An unknown
 * token costs the same rate count and the same statement as a known one, so the time of the 404
 * tells nothing.
 */
export function pingRoutes(deps: PingRoutesDeps, mount: PingMount): RequestHandler {
  const { batcher, logger, metrics } = deps;

  const ping = async (req: Request, res: Response, match: RegExpExecArray): Promise<void> => {
    // A NUL is in no token, and a Postgres text cannot hold one: looked up as another character, the
    // token is still unknown, answered 404 after the same work as any other (docs/heartbeats.md).
    const token = decodeURIComponent(match[1]!).slice(0, TOKEN_MAX_LENGTH).replace(/\0/g, '\uFFFD');
    const signal = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
    const kind = kindOf(signal);
    let body = EMPTY_BODY;
    try {
      if (req.method === 'POST') body = await readPingBody(req);
    } catch (err) {
      if (err instanceof PingBodyTooLargeError) return answer(res, 413, `a ping's body is at most ${PING_BODY_MAX_BYTES} bytes`);
      throw err;
    }
    const userAgent = req.headers['user-agent'];
    const ip = req.ip;
    const { recorded, rate } = await batcher.submit({
      token,
      ip,
      input:
        kind === null
          ? null
          : {
              token,
              ...kind,
              sourceIp: ip === undefined ? null : ip.slice(0, SOURCE_IP_MAX_LENGTH),
              userAgent: userAgent === undefined ? null : userAgent.slice(0, USER_AGENT_MAX_LENGTH),
              body: body.text,
              bodySize: body.size,
              bodyTruncated: body.truncated,
            },
    });
    if (rate.ip) setIpWindowHeaders(res, rate.ip);
    if (rate.outcome === 'ip-limited') {
      const seconds = Math.max(1, Math.ceil(rate.ip.resetMs / 1000));
      res.setHeader('Retry-After', String(seconds));
      throw new DomainError('RATE_LIMIT_EXCEEDED', `Rate limit of ${rate.ip.limit} pings per minute exceeded; retry in ${seconds} seconds`);
    }
    if (rate.outcome === 'token-limited') {
      res.setHeader('Retry-After', '1');
      throw new DomainError('RATE_LIMIT_EXCEEDED', 'At most 5 pings a second are recorded per heartbeat; retry in 1 second');
    }
    answer(res, recorded ? 200 : 404, recorded ? 'OK' : 'not found');
  };

  return (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'POST' || req.method === 'HEAD' ? PING_PATH.exec(req.url) : null;
    if (match === null || (mount.first !== false && !mount.first(req))) return next();
    const route = match[2] === undefined ? '/ping/:token' : '/ping/:token/:signal';
    const failed = (err: unknown): void => {
      // A token Express could not decode (`/ping/%FF`) names no monitor: the same 404 as any unknown one.
      if (err instanceof URIError) answer(res, 404, 'not found');
      // Anything else (a limit, Postgres or Redis away) is answered by the app's error handler.
      else next(err);
    };
    if (mount.first === false) {
      res.locals.routeTemplate = route;
      ping(req, res, match).catch(failed);
      return;
    }
    const started = performance.now();
    const endTimer = metrics.httpRequestDuration.startTimer();
    const requestId = assignRequestId(req, res);
    res.once('finish', () => {
      endTimer({ method: req.method, route, status: String(res.statusCode) });
      logRequest(logger, req, res, requestId, route, performance.now() - started);
    });
    deps.gate(req, res, (refusal?: unknown) => {
      if (refusal !== undefined) return next(refusal);
      ping(req, res, match).catch(failed);
    });
  };
}

function answer(res: Response, status: number, text: string): void {
  res.writeHead(status, { ...TEXT_HEADERS, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** express-rate-limit's legacy headers, as every limited route of the API sets them (docs/api.md). */
function setIpWindowHeaders(res: Response, ip: IpWindow): void {
  res.setHeader('X-RateLimit-Limit', String(ip.limit));
  res.setHeader('X-RateLimit-Remaining', String(ip.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + ip.resetMs) / 1000)));
}

/** The request's one line, as `requestLogging()` writes it for the rest of the API; the token is left out of it. */
function logRequest(logger: Logger, req: Request, res: Response, requestId: string, route: string, elapsedMs: number): void {
  const level = requestLogLevel(res.statusCode, elapsedMs);
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      request_id: requestId,
      req: { id: requestId, method: req.method, url: route },
      res: { statusCode: res.statusCode },
      responseTime: Math.round(elapsedMs),
    },
    requestLogMessage(level),
  );
}
