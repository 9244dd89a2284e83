import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { DomainError } from '@uptime/errors';
import { malformedEscapeAnswers } from '../http/malformed-escape';
import { insertPing, type PingKind } from './heartbeat-pings.repository';
import { PING_BODY_MAX_BYTES, PingBodyTooLargeError, readPingBody, type PingBody } from './ping-body';
import { withinPingRate } from './ping-rate';

export interface PingRoutesDeps {
  ds: DataSource;
  redis: Redis;
  prefix: string;
  /** PING_RATE_LIMIT_PER_MINUTE per IP; absent when 0. */
  limiter?: RequestHandler;
}

/** The longest token looked up: anything longer is no token of ours, and is cut so the statement stays as cheap. */
const TOKEN_MAX_LENGTH = 64;
const USER_AGENT_MAX_LENGTH = 512;

/** What the part after the token says: nothing (success), start, fail or an exit status 0..255; null: no such route. */
function kindOf(signal: string | undefined): { kind: PingKind; exitStatus: number | null } | null {
  if (signal === undefined) return { kind: 'success', exitStatus: null };
  if (signal === 'start' || signal === 'fail') return { kind: signal, exitStatus: null };
  if (/^\d{1,3}$/.test(signal) && Number(signal) <= 255) return { kind: 'exit', exitStatus: Number(signal) };
  return null;
}

function answer(res: Response, status: number, text: string): void {
  res.status(status).set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(text);
}

const EMPTY_BODY: PingBody = { text: null, size: 0, truncated: false };

/**
 * `/ping/{token}`, `/start`, `/fail` and `/{exit status}` on GET, POST and HEAD (docs/heartbeats.md):
 * no caller, no session, no CSRF check, since a cron line pings with curl or wget. A ping is one
 * statement (the row, found by token; its trigger puts it in the inbox the check-worker steps
 * from): the answer never waits for the state to change, and takes no lock a step holds
 * (docs/heartbeats.md, "How it is built"). An unknown token costs the same rate count and the same
 * statement as a known one, so the time of the 404 tells nothing.
 */
export function pingRouter(deps: PingRoutesDeps): Router {
  const router = Router();
  if (deps.limiter) router.use(deps.limiter);

  const ping = async (req: Request, res: Response): Promise<void> => {
    // A NUL is in no token, and a Postgres text cannot hold one: looked up as another character, the
    // token is still unknown, answered 404 after the same work as any other (docs/heartbeats.md).
    const token = String(req.params.token).slice(0, TOKEN_MAX_LENGTH).replace(/\0/g, '\uFFFD');
    const { signal } = req.params as { signal?: string };
    const kind = kindOf(signal);
    let body = EMPTY_BODY;
    try {
      if (req.method === 'POST') body = await readPingBody(req);
    } catch (err) {
      if (err instanceof PingBodyTooLargeError) return answer(res, 413, `a ping's body is at most ${PING_BODY_MAX_BYTES} bytes`);
      throw err;
    }
    if (!(await withinPingRate(deps.redis, deps.prefix, token))) {
      res.setHeader('Retry-After', '1');
      throw new DomainError('RATE_LIMIT_EXCEEDED', 'At most 5 pings a second are recorded per heartbeat; retry in 1 second');
    }
    const recorded =
      kind === null
        ? null
        : await insertPing(deps.ds, {
            token,
            ...kind,
            sourceIp: req.ip ?? null,
            userAgent: req.get('user-agent')?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
            body: body.text,
            bodySize: body.size,
            bodyTruncated: body.truncated,
          });
    answer(res, recorded === null ? 404 : 200, recorded === null ? 'not found' : 'OK');
  };

  // Express answers HEAD with the GET route (and no body).
  for (const path of ['/:token', '/:token/:signal']) router.route(path).get(ping).post(ping);
  // A token Express cannot decode (`/ping/%FF`) names no monitor: the same 404 as any unknown one.
  router.use(malformedEscapeAnswers((_req, res) => answer(res, 404, 'not found')));
  return router;
}
