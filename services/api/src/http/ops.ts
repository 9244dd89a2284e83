import type { RequestHandler } from 'express';
import { createOpsHandler, opsPathOf, type ReadinessChecker, type ServiceMetrics } from '@uptime/observability';

/**
 * `/healthz` and `/readyz` (docs/operations.md): mounted before HTTPS redirects, sessions and
 * authentication, so probes over plain HTTP always reach them. Not `/metrics`: this port is the
 * public one, so the metrics are served by the process's health listener only (HEALTH_HOST,
 * HEALTH_PORT), and `/metrics` here answers 404.
 */
export function opsRoutes(deps: { readiness: ReadinessChecker }): RequestHandler {
  const handle = createOpsHandler({ readiness: deps.readiness });
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
