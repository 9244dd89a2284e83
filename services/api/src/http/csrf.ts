import type { RequestHandler } from 'express';
import type { Config } from '@uptime/config';
import { ForbiddenError } from '@uptime/errors';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** `Sec-Fetch-Site` values of requests a page of another site did not start. */
const OWN_SITE = new Set(['same-origin', 'same-site', 'none']);

/** The origins of pages that may act with a session: APP_URL's and CORS_ORIGINS. */
export function ownOrigins(config: Config): Set<string> {
  return new Set([new URL(config.http.appUrl).origin, ...config.corsOrigins.map((o) => o.replace(/\/+$/, ''))]);
}

/**
 * Cross-site request forgery defence (docs/security.md). A state-changing request authenticated
 * by the session cookie must come from the web application: its `Origin` is APP_URL's origin or
 * a CORS_ORIGINS entry, or, without `Origin`, its `Sec-Fetch-Site` says the browser's own site
 * (or the user, `none`) started it. Anything else is 403 INSUFFICIENT_PERMISSIONS, whatever
 * SameSite a browser applies. Bearer tokens are never sent by a browser on its own, so they are
 * unaffected. Mount after the caller is identified.
 */
export function csrfGuard(config: Config): RequestHandler {
  const allowed = ownOrigins(config);
  return (req, _res, next) => {
    if (req.caller?.via !== 'session' || !STATE_CHANGING.has(req.method)) return next();
    const origin = req.get('origin');
    if (origin !== undefined) {
      if (allowed.has(origin)) return next();
      return next(new ForbiddenError(`A request from ${origin} may not act with this session`));
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && OWN_SITE.has(site)) return next();
    next(new ForbiddenError('A request with a session must come from the web application (Origin or Sec-Fetch-Site)'));
  };
}
