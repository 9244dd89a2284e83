import express, { type Express } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { createServiceMetrics, type ReadinessChecker, type ServiceMetrics } from '@uptime/observability';
import { openQueue, QueueName, type MonitorScheduler } from '@uptime/queues';
import { identifyCaller, requireCaller } from './auth/identify-caller';
import { loginLinkRouter } from './auth/login-link.routes';
import { createOAuth } from './auth/oauth-strategies';
import { sessionMiddleware } from './auth/session';
import { sessionRouter } from './auth/session.routes';
import { signInRouter } from './auth/sign-in.routes';
import { TokenCache } from './auth/token-cache';
import { tokensRouter } from './auth/tokens.routes';
import { corsPolicy } from './http/cors';
import { csrfGuard } from './http/csrf';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { httpsRedirect } from './http/https-redirect';
import { inputGuard } from './http/input-guard';
import { jsonBody } from './http/json-body';
import { apiReadiness, DependencyGate } from './http/dependency-gate';
import { httpMetrics, opsRoutes } from './http/ops';
import { publicRateLimiter, rateLimiter } from './http/rate-limit';
import { PublicCache } from './http/public-cache';
import { requestContext } from './http/request-context';
import { monitorOperationsRouter } from './monitors/monitor-operations.routes';
import { monitorsRouter } from './monitors/monitors.routes';
import { monitorStatsRouter } from './monitor-stats/stats.routes';
import { checkResultsRouter } from './check-results/check-results.routes';
import { notificationsRouter } from './notifications/notifications.routes';
import { alertsRouter } from './alerts/alerts.routes';
import { dashboardRouter } from './dashboard/dashboard.routes';
import { preferencesRouter } from './preferences/preferences.routes';
import { agentsRouter } from './agents/agents.routes';
import { monitorAgentsRouter } from './monitors/monitor-agents.routes';
import { apiExplorer, openApiDocumentRoute } from './openapi/explorer';
import { inspectResponses, type ResponseInspector } from './openapi/response-inspection';
import { statusPagesRouter } from './status-pages/status-pages.routes';
import { maintenanceWindowsRouter } from './maintenance-windows/maintenance-windows.routes';
import { publicStatusApiRouter, statusPageHtmlRouter } from './status-pages/public-status.routes';
import { badgesRouter } from './badges/badges.routes';
import { badgeImagesRouter } from './badges/badge-images.routes';
import { DEFAULT_WEB_DIST_DIR, serveWebApp } from './web/web-app';
import { alertChannelsRouter } from './monitors/alert-channels.routes';

export interface AppDeps {
  config: Config;
  dataSource: DataSource;
  redis: Redis;
  scheduler: MonitorScheduler;
  logger: Logger;
  /** The process's metrics (default: a registry of its own). */
  metrics?: ServiceMetrics;
  /** Default: Postgres through `dataSource` (once `started`) and Redis through `redis`. */
  readiness?: ReadinessChecker;
  /**
   * Resolves once `dataSource` is connected and migrated; until then every request but
   * /healthz, /readyz and /metrics is a 503. Default: already.
   */
  started?: Promise<void>;
  /** Sees every answer (the tests check each one against the OpenAPI document). */
  responseInspector?: ResponseInspector;
}

/** The API as an Express app that does not listen (tests drive it with supertest). */
export function createApp(deps: AppDeps): Express {
  const { config, dataSource: ds, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  if (deps.responseInspector) app.use(inspectResponses(deps.responseInspector));
  app.use(requestContext);
  // Operations first: before HTTPS redirects, sessions, auth and rate limits (and not logged).
  const metrics = deps.metrics ?? createServiceMetrics();
  app.use(httpMetrics(metrics.httpRequestDuration));
  let started = deps.started === undefined;
  deps.started?.then(
    () => {
      started = true;
    },
    () => undefined,
  );
  // Probes answer within half the dependency deadline, so /readyz and the gate stay quick.
  const readiness = deps.readiness ?? apiReadiness({ dataSource: ds, redis: deps.redis, started: () => started }, Math.max(100, config.dependencyTimeoutMs / 2));
  const gate = new DependencyGate(readiness);
  app.use(opsRoutes({ readiness, metrics }));
  const requestLogger = pinoHttp<express.Request, express.Response>({
    logger,
    genReqId: (_req, res) => String(res.locals?.requestId ?? ''),
    customProps: (_req, res) => ({ request_id: (res as express.Response).locals?.requestId }),
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    // A 503 is expected (a dependency away, or starting): its one line says why, without a stack.
    customErrorObject: (_req, res, _error, val: Record<string, unknown>) =>
      res.statusCode === 503 ? { res: val.res, responseTime: val.responseTime, reason: res.locals.unavailableReason } : val,
    customErrorMessage: (_req, res) => (res.statusCode === 503 ? 'service unavailable' : 'request errored'),
  });
  // pino-http writes its one line per request at info, but serializes each request into child
  // loggers whatever the level; nothing else reads req.log, so below info it is not run at all.
  app.use((req, res, next) => (logger.isLevelEnabled('info') ? requestLogger(req, res, next) : next()));
  app.use(gate.middleware);
  if (config.requireHttps) app.use(httpsRedirect(config.http.publicUrl));
  // The explorer and the document need no caller and are not rate limited; the explorer sets its own CSP.
  app.use('/api/docs', apiExplorer({ upgradeInsecureRequests: config.requireHttps }));
  // Public status pages and badges (docs/status-pages.md): no caller, no session, their own per-IP
  // limit and a short cache in Redis. /status and /badge set their own CSP.
  const publicCache = new PublicCache({ redis: deps.redis, prefix: config.redis.queuePrefix, ttlSeconds: config.publicPages.cacheSeconds });
  const publicReads = {
    source: { ds, redis: deps.redis, prefix: config.redis.queuePrefix },
    cache: publicCache,
    limiter: publicRateLimiter(config, deps.redis),
  };
  app.use('/status', statusPageHtmlRouter(publicReads));
  app.use('/badge', badgeImagesRouter(publicReads));

  // The web app with its own CSP; it leaves /api, the ops paths, /status and /badge alone.
  app.use(serveWebApp({ distDir: config.webDistDir ?? DEFAULT_WEB_DIST_DIR, upgradeInsecureRequests: config.requireHttps }));
  app.use(helmet());
  app.use(corsPolicy(config.corsOrigins));
  app.get('/api/v1/openapi.json', openApiDocumentRoute());
  app.use('/api/v1/public', publicStatusApiRouter(publicReads));

  const v1 = express.Router();
  const oauth = createOAuth(config, ds);
  const limiter = rateLimiter(config, deps.redis);
  const tokenCache = new TokenCache();
  const sessions = sessionMiddleware(config, deps.redis);
  // A request with an Authorization header is identified by it alone (identifyCaller never falls
  // back to the session), so outside /auth, whose sign-in and session routes use req.session
  // themselves, it needs no session: none is generated, or read from Redis when a cookie comes too.
  // An empty header counts as none there, so it is none here as well.
  v1.use((req, res, next) => (req.headers.authorization && !req.path.startsWith('/auth') ? next() : sessions(req, res, next)));
  // Only the sign-in routes authenticate through passport.
  v1.use('/auth', oauth.passport.initialize());
  // Who calls, then the rate limit (per user, else per IP), then anything that may answer.
  v1.use(identifyCaller(ds, tokenCache));
  if (limiter) v1.use(limiter);
  v1.use(csrfGuard(config));
  v1.use(jsonBody);
  v1.use(inputGuard);
  v1.use('/auth', signInRouter({ config, oauth, logger }));
  v1.use('/auth', loginLinkRouter({ ds, config, logger }));
  v1.use(requireCaller);
  v1.use('/auth', sessionRouter({ ds, config }));
  v1.use('/auth/tokens', tokensRouter(ds, tokenCache));
  // Alert test sends go to the notifiers on the queue they consume.
  const statusChanges = openQueue(QueueName.statusChanges, { connection: deps.redis, prefix: deps.scheduler.prefix });
  const monitorsDeps = {
    ds,
    scheduler: deps.scheduler,
    redis: deps.redis,
    minCheckIntervalSeconds: config.minCheckIntervalSeconds,
    allowPrivateTargets: config.allowPrivateTargets,
    publicCache,
  };
  v1.use('/monitors', monitorOperationsRouter(monitorsDeps));
  v1.use('/monitors', monitorStatsRouter({ ds, redis: deps.redis, prefix: deps.scheduler.prefix }));
  v1.use('/monitors', checkResultsRouter(ds));
  v1.use('/monitors', alertChannelsRouter({ ds, redis: deps.redis, prefix: deps.scheduler.prefix, queue: statusChanges }));
  v1.use('/monitors', monitorsRouter(monitorsDeps));
  v1.use('/monitors', monitorAgentsRouter({ ds, scheduler: deps.scheduler }));
  v1.use('/monitors', badgesRouter({ ds, cache: publicCache, publicUrl: config.http.publicUrl }));
  v1.use('/status-pages', statusPagesRouter({ ds, cache: publicCache, publicUrl: config.http.publicUrl }));
  v1.use('/maintenance-windows', maintenanceWindowsRouter(ds));
  v1.use('/agents', agentsRouter({ ds, scheduler: deps.scheduler, allowPrivateTargets: config.allowPrivateTargets }));
  v1.use('/alerts', alertsRouter(ds));
  v1.use('/dashboard', dashboardRouter({ ds, redis: deps.redis, prefix: deps.scheduler.prefix }));
  v1.use('/preferences', preferencesRouter({ ds, minCheckIntervalSeconds: config.minCheckIntervalSeconds }));
  v1.use('/notifications', notificationsRouter(ds));
  app.use('/api/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(logger, { onBackendUnavailable: () => gate.suspect() }));
  return app;
}
