import type { RequestHandler } from 'express';
import { createOpsHandler, opsPathOf, type OpsDeps, type ServiceMetrics } from '@uptime/observability';

/**
 * `/healthz`, `/readyz` and `/metrics` (docs/operations.md): mounted before HTTPS redirects, sessions,
 * authentication and rate limits, so probes and scrapes over plain HTTP always reach them.
 */
export function opsRoutes(deps: OpsDeps): RequestHandler {
  const handle = createOpsHandler(deps);
  return (req, res, next) => {
    const path = opsPathOf(req);
    if (path === null) return next();
    res.locals.routeTemplate = path;
    handle(req, res).then((handled) => (handled ? undefined : next()), next);
  };
}

/** Path segments that are ids, in a mounted router's base path (`/monitors/42/agents`). */
const ID_SEGMENT = /\/\d+(?=\/|$)/g;

/**
 * `http_request_duration_seconds{method,route,status}` with the route template
 * (`/api/v1/monitors/:id`), never the raw path, so label values stay few; requests no route
 * matched are `unmatched`.
 */
export function httpMetrics(histogram: ServiceMetrics['httpRequestDuration']): RequestHandler {
  return (req, res, next) => {
    const end = histogram.startTimer();
    let template: string | undefined;
    let route: { path?: unknown } | undefined;
    // Express assigns req.route when a route matches, while req.baseUrl still names the routers
    // it is nested in; when the response finishes after an error, baseUrl has been unwound. So
    // the template is taken at the moment of matching.
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set: (value: { path?: unknown } | undefined) => {
        route = value;
        if (value && typeof value.path === 'string') {
          const base = req.baseUrl.replace(ID_SEGMENT, '/:id');
          // A router's own root ('/') is its mount path, without a trailing slash.
          template = value.path === '/' && base !== '' ? base : base + value.path;
        }
      },
    });
    res.once('finish', () => {
      const routeLabel = typeof res.locals.routeTemplate === 'string' ? res.locals.routeTemplate : (template ?? 'unmatched');
      end({ method: req.method, route: routeLabel, status: String(res.statusCode) });
    });
    next();
  };
}
