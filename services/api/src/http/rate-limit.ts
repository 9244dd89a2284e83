import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import { HOUR_MS, MINUTE_MS } from '@uptime/db';
import { DomainError } from '@uptime/errors';
import { ipBucket } from './ip-bucket';
import { rateLimitCommands } from './rate-limit-commands';
import type { PingIpLimit } from '../heartbeats/ping-rate';


interface LimitSpec {
  limit: number;
  windowMs: number;
  /** Redis key prefix of this limit's counters, so two limits never share a count. */
  keyPrefix: string;
  key: (req: Request) => string;
  /** The request path's Redis deadline (docs/reliability.md). */
  timeoutMs: number;
  /** "requests per hour", shown in the 429's message. */
  per: string;
}

/**
 * A limit counted in Redis, so every API instance shares it. Sets `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (express-rate-limit's legacy headers; Reset is
 * Unix seconds) on every response it sees, and `Retry-After` (seconds) with the 429.
 */
function redisRateLimit(redis: Redis, spec: LimitSpec): RequestHandler {
  // Built on first use: the store loads its Lua scripts into Redis as it is constructed, and an
  // app closed before it ever counted a request (tests, a start-up aborted) must not leave those
  // commands to fail on a closed connection.
  let limiter: RequestHandler | undefined;
  return (req, res, next) => {
    limiter ??= buildRateLimit(redis, spec);
    return limiter(req, res, next);
  };
}

/** The client's address, IPv6 ones reduced to their RATE_LIMIT_IPV6_PREFIX bits (one customer's /56). */
function clientBucket(req: Request, config: Config): string {
  return req.ip ? ipBucket(req.ip, config.rateLimitIpv6Prefix) : 'unknown';
}

function buildRateLimit(redis: Redis, spec: LimitSpec): RequestHandler {
  const commands = rateLimitCommands(redis, spec.timeoutMs);
  const store = new RedisStore({ sendCommand: commands.send, prefix: spec.keyPrefix });
  commands.built();
  return rateLimit({
    windowMs: spec.windowMs,
    limit: spec.limit,
    legacyHeaders: true,
    standardHeaders: false,
    // Created on the first request on purpose (above); the counts live in Redis, not in the instance.
    validate: { creationStack: false },
    store,
    keyGenerator: spec.key,
    handler: (_req, res, next) => {
      const retryAfter = res.getHeader('Retry-After');
      next(new DomainError('RATE_LIMIT_EXCEEDED', `Rate limit of ${spec.limit} ${spec.per} exceeded; retry in ${retryAfter ?? 'a few'} seconds`));
    },
  });
}

/**
 * `RATE_LIMIT_PER_HOUR` requests an hour per organization the caller acts in (the same count
 * whether they come with a session or a token, and for every member: the organization is the
 * tenant, docs/organizations.md), per IP for requests without a caller — including the ones answered 401;
 * an IPv6 client per RATE_LIMIT_IPV6_PREFIX bits of its address (`ipBucket`).
 * Returns undefined when the limit is 0: no limiter and no headers (self-hosted installs).
 *
 * Mount it after the caller is identified and before anything may answer on its own.
 */
export function rateLimiter(config: Config, redis: Redis): RequestHandler | undefined {
  const limit = config.rateLimitPerHour;
  if (limit === 0) return undefined;
  return redisRateLimit(redis, {
    limit,
    windowMs: HOUR_MS,
    keyPrefix: `${config.redis.queuePrefix}:rl:`,
    timeoutMs: config.dependencyTimeoutMs,
    key: (req) => (req.caller ? `org:${req.caller.organizationId}` : `ip:${clientBucket(req, config)}`),
    per: 'requests per hour',
  });
}

/**
 * `PUBLIC_RATE_LIMIT_PER_MINUTE` requests a minute per IP on the public status pages and badges
 * (docs/status-pages.md), counted apart from the account limit: a popular page read by anyone
 * never uses up its owner's API allowance, nor the other way round. Undefined when 0.
 */
export function publicRateLimiter(config: Config, redis: Redis): RequestHandler | undefined {
  return perIpMinuteLimiter(config, redis, config.publicPages.rateLimitPerMinute, 'rl-public', 'requests per minute');
}

/**
 * `PING_RATE_LIMIT_PER_MINUTE` heartbeat pings a minute per IP (docs/heartbeats.md), apart from
 * the account and public-page limits: a server running many cron jobs pings from one address.
 * Counted by the ping's own batched script (services/api/src/heartbeats/ping-rate.ts), under the
 * key the express-rate-limit store used. Undefined when 0.
 */
export function pingIpLimit(config: Config): PingIpLimit | undefined {
  const limit = config.pingRateLimitPerMinute;
  if (limit === 0) return undefined;
  const keyPrefix = `${config.redis.queuePrefix}:rl-ping:ip:`;
  return { limit, windowMs: MINUTE_MS, keyOf: (ip) => keyPrefix + (ip ? ipBucket(ip, config.rateLimitIpv6Prefix) : 'unknown') };
}

/** `limit` requests a minute per client address, counted under `name`; undefined when 0. */
function perIpMinuteLimiter(config: Config, redis: Redis, limit: number, name: string, per: string): RequestHandler | undefined {
  if (limit === 0) return undefined;
  return redisRateLimit(redis, {
    limit,
    windowMs: MINUTE_MS,
    keyPrefix: `${config.redis.queuePrefix}:${name}:`,
    timeoutMs: config.dependencyTimeoutMs,
    key: (req) => `ip:${clientBucket(req, config)}`,
    per,
  });
}

/**
 * Subscribing to a status page by email (docs/status-pages.md, "Subscribers"): at most
 * `SUBSCRIBE_RATE_LIMIT_PER_HOUR` requests an hour per IP and `SUBSCRIBE_PAGE_RATE_LIMIT_PER_HOUR`
 * per page, whoever asks, so the form cannot be used to flood inboxes with confirmation emails.
 * Mounted on routes with a `:slug`; a limit of 0 is left out.
 */
export function subscribeRateLimiters(config: Config, redis: Redis): RequestHandler[] {
  const { ip, page } = config.publicPages.subscribeLimitPerHour;
  const common = { windowMs: HOUR_MS, timeoutMs: config.dependencyTimeoutMs, per: 'subscription requests per hour' };
  return [
    ...(ip === 0 ? [] : [redisRateLimit(redis, { ...common, limit: ip, keyPrefix: `${config.redis.queuePrefix}:rl-subscribe-ip:`, key: (req) => `ip:${clientBucket(req, config)}` })]),
    ...(page === 0 ? [] : [redisRateLimit(redis, { ...common, limit: page, keyPrefix: `${config.redis.queuePrefix}:rl-subscribe-page:`, key: (req) => `page:${String(req.params.slug)}` })]),
  ];
}
