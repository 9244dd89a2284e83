import express, { type Router } from 'express';
import type { AppDeps, ResolvedAppDeps } from './app-deps';
import { identifyCaller, requireCaller } from './auth/identify-caller';
import { loginLinkRouter } from './auth/login-link.routes';
import { enforcePermissions } from './auth/permissions';
import { createOAuth } from './auth/oauth-strategies';
import { sessionMiddleware } from './auth/session';
import { sessionRouter } from './auth/session.routes';
import { signInRouter } from './auth/sign-in.routes';
import { TokenCache } from './auth/token-cache';
import { tokensRouter } from './auth/tokens.routes';
import { csrfGuard } from './http/csrf';
import { inputGuard } from './http/input-guard';
import { jsonBody } from './http/json-body';
import type { PublicCache } from './http/public-cache';
import { rateLimiter } from './http/rate-limit';
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
import { statusPagesRouter } from './status-pages/status-pages.routes';
import { loadSecretKeyring } from '@uptime/db';
import { channelsRouter } from './channels/channels.routes';
import { maintenanceWindowsRouter } from './maintenance-windows/maintenance-windows.routes';
import { LiveHub } from './live/live-hub';
import { liveRouter, organizationFromQuery } from './live/live.routes';
import { badgesRouter } from './badges/badges.routes';
import { alertChannelsRouter } from './monitors/alert-channels.routes';
import { auditLogRouter } from './audit/audit-log.routes';
import { invitationsRouter, organizationsRouter } from './organizations/organizations.routes';

/** `/api/v1` but its public part: who calls, the rate limit and the body rules, then each resource's routes. */
export function apiV1Router(deps: ResolvedAppDeps, publicCache: PublicCache): Router {
  const v1 = express.Router();
  const tokenCache = new TokenCache();
  v1.use('/live', organizationFromQuery);
  useCallerAndLimits(v1, deps, tokenCache);
  useResourceRoutes(v1, deps, publicCache, tokenCache);
  return v1;
}

/**
 * The session, the caller, the rate limit, CSRF and the body rules, then the sign-in routes (the
 * only ones without a caller), then `requireCaller` for all that follows.
 */
function useCallerAndLimits(v1: Router, deps: AppDeps, tokenCache: TokenCache): void {
  const { config, dataSource: ds, logger } = deps;
  const oauth = createOAuth(config, ds);
  const limiter = rateLimiter(config, deps.redis);
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
  v1.use(enforcePermissions);
}

/** The routes that need a caller, one router per resource. */
function useResourceRoutes(v1: Router, deps: ResolvedAppDeps, publicCache: PublicCache, tokenCache: TokenCache): void {
  const { config, dataSource: ds, redis, scheduler, statusChanges } = deps;
  const stats = { ds, redis, prefix: scheduler.prefix };
  v1.use('/auth', sessionRouter({ ds, config }));
  v1.use('/auth/tokens', tokensRouter(ds, tokenCache));
  // Seals and opens channel secrets, the monitor's own Slack URL and webhook key among them (docs/channels.md).
  const keyring = deps.keyring ?? loadSecretKeyring({ env: config.env, ...config.secrets, dataDir: config.local?.dataDir }, (line) => deps.logger.info(line));
  const monitorsDeps = {
    ds,
    keyring,
    scheduler,
    redis,
    minCheckIntervalSeconds: config.minCheckIntervalSeconds,
    allowPrivateTargets: config.allowPrivateTargets,
    publicCache,
    publicUrl: config.http.publicUrl,
  };
  v1.use('/monitors', monitorOperationsRouter(monitorsDeps));
  v1.use('/monitors', monitorStatsRouter(stats));
  v1.use('/monitors', checkResultsRouter(ds));
  v1.use('/monitors', alertChannelsRouter({ ...stats, queue: statusChanges, keyring }));
  v1.use('/monitors', monitorsRouter(monitorsDeps));
  v1.use('/monitors', monitorAgentsRouter({ ds, scheduler }));
  v1.use('/monitors', badgesRouter({ ds, cache: publicCache, publicUrl: config.http.publicUrl }));
  v1.use('/status-pages', statusPagesRouter({ ds, source: stats, cache: publicCache, statusChanges, publicUrl: config.http.publicUrl }));
  v1.use('/maintenance-windows', maintenanceWindowsRouter(ds));
  v1.use('/live', liveRouter({ hub: new LiveHub(config.redis.url, config.redis.queuePrefix, deps.logger), config, lifetimeMs: deps.liveStreamLifetimeMs }));
  v1.use('/channels', channelsRouter({ ...stats, queue: statusChanges, keyring, allowPrivateTargets: config.allowPrivateTargets }));
  v1.use('/agents', agentsRouter({ ds, scheduler, allowPrivateTargets: config.allowPrivateTargets }));
  v1.use('/alerts', alertsRouter(ds));
  v1.use('/dashboard', dashboardRouter(stats));
  v1.use('/preferences', preferencesRouter({ ds, minCheckIntervalSeconds: config.minCheckIntervalSeconds }));
  v1.use('/notifications', notificationsRouter(ds));
  v1.use('/organizations/:org_id/audit-log', auditLogRouter(ds));
  // Invitation emails are sent by the notifiers, as alert tests are (docs/organizations.md).
  v1.use('/organizations', organizationsRouter({ ds, scheduler, tokenCache, publicCache, statusChanges, publicUrl: config.http.publicUrl }));
  v1.use('/invitations', invitationsRouter({ ds }));
}
