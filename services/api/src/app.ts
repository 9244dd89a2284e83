import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { createServiceMetrics, type ReadinessChecker, type ServiceMetrics } from '@uptime/observability';
import type { AppDeps, ResolvedAppDeps } from './app-deps';
import { corsPolicy } from './http/cors';
import { apiV1Router } from './api-v1';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { httpsRedirect } from './http/https-redirect';
import { apiReadiness, DependencyGate } from './http/dependency-gate';
import { httpMetrics, opsRoutes } from './http/ops';
import { openQueue, QueueName } from '@uptime/queues';
import { pingIpLimit, publicRateLimiter, subscribeRateLimiters } from './http/rate-limit';
import { pingRoutes, type PingRoutesDeps } from './heartbeats/ping.routes';
import { PingBatcher } from './heartbeats/ping-batcher';
import { PublicCache } from './http/public-cache';
import { requestContext } from './http/request-context';
import { requestLogging } from './http/request-log';
import { apiExplorer, configFileSchemaRoute, openApiDocumentRoute } from './openapi/explorer';
import { inspectResponses } from './openapi/response-inspection';
import { publicStatusApiRouter, statusPageHtmlRouter } from './status-pages/public-status.routes';
import { badgeImagesRouter } from './badges/badge-images.routes';
import { customDomainHost, isOwnHost } from './status-pages/custom-domain-host';
import { DEFAULT_WEB_DIST_DIR, serveWebApp } from './web/web-app';

/** The API as an Express app that does not listen (tests drive it with supertest). */
export function createApp(given: AppDeps): Express {
  const deps: ResolvedAppDeps = {
    ...given,
    statusChanges: given.statusChanges ?? openQueue(QueueName.statusChanges, { connection: given.redis, prefix: given.scheduler.prefix }),
  };
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  if (deps.responseInspector) app.use(inspectResponses(deps.responseInspector));
  const metrics = deps.metrics ?? createServiceMetrics();
  const { gate, readiness } = dependencyGate(deps);
  // Heartbeat pings before everything else: they need none of it (pingRoutes(), docs/heartbeats.md).
  const pings = pingDeps(deps, metrics, gate);
  const ownHost = isOwnHost(config.http.publicUrl);
  const firstPings = pingRoutes(pings, { first: (req) => (!config.requireHttps || req.secure) && ownHost(req.hostname) });
  app.use(firstPings);
  app.use(requestContext);
  // Operations first: before HTTPS redirects, sessions, auth and rate limits (and not logged).
  app.use(httpMetrics(metrics.httpRequestDuration));
  app.use(opsRoutes({ readiness }));
  app.use(requestLogging(logger));
  app.use(gate.middleware);
  if (config.requireHttps) app.use(httpsRedirect(config.http.publicUrl));
  // A page's own host serves that page and nothing else of the product (docs/status-pages.md).
  app.use(customDomainHost({ ds: deps.dataSource, publicUrl: config.http.publicUrl, ttlMs: config.publicPages.cacheSeconds * 1000 }));
  // The pings the first pass left: on a host that might have been a page's, or redirected to HTTPS above.
  app.use(pingRoutes(pings, { first: false }));
  // The explorer needs no caller and is static files; it sets its own CSP. Its document is limited per IP (below).
  app.use('/api/docs', apiExplorer({ upgradeInsecureRequests: config.requireHttps }));
  const publicCache = new PublicCache({ redis: deps.redis, prefix: config.redis.queuePrefix, ttlSeconds: config.publicPages.cacheSeconds });
  usePublicPagesAndWebApp(app, deps, publicCache);
  app.use('/api/v1', apiV1Router(deps, publicCache));

  app.use(notFoundHandler);
  const answerError = errorHandler(logger, { onBackendUnavailable: () => gate.suspect() });
  app.use(answerError);
  pingsFirst.set(app, { pings: firstPings, answerError });
  return app;
}

/** The ping routes each app mounts first, and its error handler, for withPingsFirst(). */
const pingsFirst = new WeakMap<Express, { pings: RequestHandler; answerError: ErrorRequestHandler }>();

/**
 * The app as the server's request listener, with `/ping/` requests handed to the ping routes
 * without going through Express's router (the same routes the app mounts first, so the same
 * answers: docs/heartbeats.md, "How it is built"); a ping they do not take, and any other
 * request, goes to the app. For the server only: tests drive the app itself.
 */
export function withPingsFirst(app: Express): RequestListener {
  const first = pingsFirst.get(app);
  if (!first) return app;
  return (req, res) => {
    if (req.url?.slice(0, 6).toLowerCase() !== '/ping/') return app(req, res);
    // What app.handle() does before its router, so that the request's getters (req.ip under
    // TRUST_PROXY, req.hostname, req.secure) and the response's methods are Express's.
    const request = Object.setPrototypeOf(req, app.request) as Request;
    const response = Object.setPrototypeOf(res, app.response) as Response;
    request.res = response;
    response.req = request;
    response.locals = Object.create(null) as Response['locals'];
    first.pings(request, response, (err?: unknown) => {
      if (err === undefined) return app(req, res);
      // The error handler answers whatever it is given; nothing comes after it.
      first.answerError(err, request, response, () => res.destroy());
    });
  };
}

/**
 * The readiness of /readyz, and the gate that answers 503 while a dependency is away or starting
 * (docs/reliability.md).
 */
function dependencyGate(deps: AppDeps): { gate: DependencyGate; readiness: ReadinessChecker } {
  let started = deps.started === undefined;
  // Probes answer within half the dependency deadline, so /readyz and the gate stay quick.
  const readiness =
    deps.readiness ??
    apiReadiness({ dataSource: deps.dataSource, redis: deps.redis, started: () => started }, Math.max(100, deps.config.dependencyTimeoutMs / 2));
  const gate = new DependencyGate(readiness);
  deps.started?.then(
    () => {
      started = true;
      // A "not migrated yet" verdict is over: the next request looks afresh instead of meeting it.
      gate.forget();
    },
    () => undefined,
  );
  return { gate, readiness };
}

/** What both mounts of the ping routes share: one batcher, so the pings of one turn are one statement. */
function pingDeps(deps: ResolvedAppDeps, metrics: ServiceMetrics, gate: DependencyGate): PingRoutesDeps {
  const { config } = deps;
  return {
    batcher: new PingBatcher({ ds: deps.dataSource, redis: deps.redis, prefix: config.redis.queuePrefix, ipLimit: pingIpLimit(config) }),
    logger: deps.logger,
    metrics,
    gate: gate.middleware,
  };
}

/**
 * Public status pages and badges (docs/status-pages.md) (heartbeat pings are mounted earlier):
 * no caller, no session, their own per-IP limit; the pages a short cache in Redis; /status and
 * /badge set their own CSP. Then the web app, with
 * its own CSP, which leaves /api, the ops paths, /status and /badge alone; then helmet and CORS
 * for the rest, the OpenAPI document (under the same per-IP limit) and the public status API.
 */
function usePublicPagesAndWebApp(app: Express, deps: ResolvedAppDeps, publicCache: PublicCache): void {
  const { config } = deps;
  const publicReads = {
    source: { ds: deps.dataSource, redis: deps.redis, prefix: config.redis.queuePrefix },
    cache: publicCache,
    publicUrl: config.http.publicUrl,
    limiter: publicRateLimiter(config, deps.redis),
    subscriptions: {
      ds: deps.dataSource,
      // Confirmation emails go out through the notifiers' one mail transport.
      statusChanges: deps.statusChanges,
      publicUrl: config.http.publicUrl,
      subscribeLimiters: subscribeRateLimiters(config, deps.redis),
    },
  };
  app.use('/status', statusPageHtmlRouter(publicReads));
  app.use('/badge', badgeImagesRouter(publicReads));
  app.use(serveWebApp({ distDir: config.webDistDir ?? DEFAULT_WEB_DIST_DIR, upgradeInsecureRequests: config.requireHttps }));
  app.use(helmet());
  app.use(corsPolicy(config.corsOrigins));
  app.get('/api/v1/openapi.json', ...(publicReads.limiter ? [publicReads.limiter] : []), openApiDocumentRoute());
  app.get('/api/v1/config.schema.json', ...(publicReads.limiter ? [publicReads.limiter] : []), configFileSchemaRoute());
  app.use('/api/v1/public', publicStatusApiRouter(publicReads));
}
