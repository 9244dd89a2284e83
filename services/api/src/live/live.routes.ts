import { Router, type RequestHandler, type Response } from 'express';
import type { Config } from '@uptime/config';
import { ForbiddenError } from '@uptime/errors';
import { callerOf } from '../auth/caller';
import { ownOrigins } from '../http/csrf';
import { ORGANIZATION_HEADER } from '../organizations/organization-header';
import type { LiveHub } from './live-hub';

/** A comment line this often keeps proxies and the browser from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** How soon the browser reconnects after a stream ends. */
const RETRY_MS = 1_000;
/** A stream ends after this long (the browser reconnects): the caller's access is read again, and replicas rebalance. */
export const LIVE_STREAM_LIFETIME_MS = 15 * 60_000;

export interface LiveRoutesDeps {
  hub: LiveHub;
  config: Config;
  /** Default LIVE_STREAM_LIFETIME_MS; the API tests end streams at once. */
  lifetimeMs?: number;
}

/**
 * An EventSource cannot send headers: the stream takes its organization as `?organization_id`,
 * which stands for X-Organization-Id and is checked as the header is (docs/organizations.md).
 * Mounted before the caller is identified.
 */
export const organizationFromQuery: RequestHandler = (req, _res, next) => {
  const asked = req.query.organization_id;
  if (typeof asked === 'string' && req.get(ORGANIZATION_HEADER) === undefined) req.headers[ORGANIZATION_HEADER.toLowerCase()] = asked;
  next();
};

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * `GET /live`: Server-Sent Events of the caller's organization (docs/web.md, "Live updates"):
 * `ready` first, then `checks`, `status` and `notification` as the workers publish them, and
 * `bye` before a planned end. A session must come from the web app: an `Origin` other than the
 * app's, or a page of another site (`Sec-Fetch-Site: cross-site`), is refused as for a write.
 */
export function liveRouter({ hub, config, lifetimeMs = LIVE_STREAM_LIFETIME_MS }: LiveRoutesDeps): Router {
  const router = Router();
  const allowed = ownOrigins(config);
  router.get('/', async (req, res) => {
    const caller = callerOf(req);
    if (caller.via === 'session') {
      const origin = req.get('origin');
      if (origin !== undefined ? !allowed.has(origin) : req.get('sec-fetch-site') === 'cross-site') {
        throw new ForbiddenError('A stream with a session must come from the web application (Origin or Sec-Fetch-Site)');
      }
    }
    const stop = await hub.listen(caller.organizationId, (frame) => res.write(frame));
    openStream(res);
    res.write(`retry: ${RETRY_MS}\n\n`);
    res.write(frame('ready', { organization_id: caller.organizationId }));
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS);
    const lifetime = setTimeout(() => {
      res.write(frame('bye', { reconnect_ms: RETRY_MS }));
      res.end();
    }, lifetimeMs);
    res.on('close', () => {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      stop();
    });
  });
  return router;
}

function openStream(res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  // nginx and similar proxies would otherwise hold the events back in a buffer.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
}
