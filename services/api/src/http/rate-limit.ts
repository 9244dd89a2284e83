import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import { DomainError } from '@uptime/errors';
import { ipBucket } from './ip-bucket';
import { rateLimitCommands } from './rate-limit-commands';

const HOUR_MS = 3_600_000;

/**
 * `RATE_LIMIT_PER_HOUR` requests an hour per user (the same count whether they come with a
 * session or a token), per IP for requests without a caller — including the ones answered 401;
 * an IPv6 client per RATE_LIMIT_IPV6_PREFIX bits of its address (`ipBucket`).
 * Counts live in Redis, so every API instance shares them. Sets `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (express-rate-limit's legacy headers; Reset is
 * Unix seconds) on every response it sees, and `Retry-After` (seconds) with the 429.
 * Returns undefined when the limit is 0: no limiter and no headers (self-hosted installs).
 *
 * Mount it after the caller is identified and before anything may answer on its own.
 */
export function rateLimiter(config: Config, redis: Redis): RequestHandler | undefined {
  const limit = config.rateLimitPerHour;
  if (limit === 0) return undefined;
  const commands = rateLimitCommands(redis, config.dependencyTimeoutMs);
  const store = new RedisStore({ sendCommand: commands.send, prefix: `${config.redis.queuePrefix}:rl:` });
  commands.built();
  return rateLimit({
    windowMs: HOUR_MS,
    limit,
    legacyHeaders: true,
    standardHeaders: false,
    store,
    keyGenerator: (req) => (req.caller ? `user:${req.caller.id}` : `ip:${req.ip ? ipBucket(req.ip, config.rateLimitIpv6Prefix) : 'unknown'}`),
    handler: (_req, res, next) => {
      const retryAfter = res.getHeader('Retry-After');
      next(
        new DomainError(
          'RATE_LIMIT_EXCEEDED',
          `Rate limit of ${limit} requests per hour exceeded; retry in ${retryAfter ?? 'a few'} seconds`,
        ),
      );
    },
  });
}
