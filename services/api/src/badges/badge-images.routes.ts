import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { MonitorStatus } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { sendCached } from '../http/cached-answer';
import { malformedEscapeAnswers } from '../http/malformed-escape';
import { uptimeGrade, type UptimeGrade } from '@uptime/probe';
import type { PublicStatusDeps } from '../status-pages/public-status.routes';
import { renderBadge, type BadgeColour } from './badge.svg';
import { BADGE_TOKEN_PATTERN, hashBadgeToken, readBadgeFacts, type BadgeFacts } from './badges.service';

export const BADGE_PERIODS = ['24h', '7d', '30d', '90d'] as const;
type BadgePeriod = (typeof BADGE_PERIODS)[number];

const STATUS_VALUE: Record<MonitorStatus, [string, BadgeColour]> = {
  online: ['up', 'green'],
  warning: ['degraded', 'yellow'],
  offline: ['down', 'red'],
  paused: ['paused', 'grey'],
  pending: ['pending', 'grey'],
};

/** A monitor in a maintenance window: planned work, not an outage (docs/alert-rules.md). */
const MAINTENANCE_VALUE: [string, BadgeColour] = ['maintenance', 'blue'];

const GRADE_COLOUR: Record<UptimeGrade, BadgeColour> = { up: 'green', partial: 'yellow', down: 'red', none: 'grey' };

function parsePeriod(raw: unknown): BadgePeriod {
  if (raw === undefined || raw === '') return '30d';
  if (typeof raw === 'string' && (BADGE_PERIODS as readonly string[]).includes(raw)) return raw as BadgePeriod;
  throw new ValidationError('Invalid query: period', { period: [`period must be one of ${BADGE_PERIODS.join(', ')}`] });
}

/**
 * An SVG may not run script or load anything, even opened on its own. A badge is made to be shown
 * on other sites (a README, a team's page), so it is a cross-origin resource: helmet's default
 * `Cross-Origin-Resource-Policy: same-origin` makes Chromium refuse it there
 * (ERR_BLOCKED_BY_RESPONSE.NotSameOrigin).
 */
const badgeSecurity = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'style-src': ["'unsafe-inline'"] } },
  crossOriginResourcePolicy: { policy: 'cross-origin' },
});

/** `/badge/{token}/status.svg` and `/badge/{token}/uptime.svg`: a monitor's badges, no caller needed. */
export function badgeImagesRouter(deps: PublicStatusDeps): Router {
  const router = Router();
  router.use(badgeSecurity);
  if (deps.limiter) router.use(deps.limiter);

  const facts = async (token: string): Promise<BadgeFacts | undefined> => {
    if (!BADGE_TOKEN_PATTERN.test(token)) return undefined;
    const tokenHash = hashBadgeToken(token);
    const entry = await deps.cache.read(deps.cache.keyOf('badge', tokenHash), ['facts'], async () => {
      const found = await readBadgeFacts(deps.source, tokenHash);
      // An unknown token is cached too ("null"): guessing tokens costs Postgres one query per token and period.
      return { facts: JSON.stringify(found ?? null) };
    });
    return (JSON.parse(entry.facts!.toString()) as BadgeFacts | null) ?? undefined;
  };

  const send = (req: Request, res: Response, svg: string, status = 200): void => {
    const etag = `"${createHash('sha1').update(svg).digest('base64url')}"`;
    sendCached(req, res, { etag, maxAge: deps.cache.ttlSeconds, contentType: 'image/svg+xml', body: svg, status });
  };
  const notFound = (req: Request, res: Response): void => send(req, res, renderBadge('badge', 'not found', 'grey'), 404);

  router.get('/:token/status.svg', async (req, res) => {
    const found = await facts(req.params.token);
    if (!found) return notFound(req, res);
    const [value, colour] = found.in_maintenance ? MAINTENANCE_VALUE : STATUS_VALUE[found.status];
    send(req, res, renderBadge('status', value, colour));
  });

  router.get('/:token/uptime.svg', async (req, res) => {
    const period = parsePeriod(req.query.period);
    const found = await facts(req.params.token);
    if (!found) return notFound(req, res);
    const uptime = found.uptime[period];
    send(req, res, renderBadge(`uptime ${period}`, uptime === null ? 'no data' : `${uptime.toFixed(2)}%`, GRADE_COLOUR[uptimeGrade(uptime)]));
  });
  router.use(malformedEscapeAnswers(notFound));
  return router;
}
