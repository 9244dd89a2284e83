import { isIPv6 } from 'node:net';
import { rateLimit } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Config } from '@uptime/config';
import { DomainError } from '@uptime/errors';

const HOUR_MS = 3_600_000;
const RETRY_MS = 500;

/** The eight 16-bit groups of an IPv6 address (`::` expanded; an embedded IPv4 tail as two groups). */
function ipv6Groups(ip: string): number[] {
  let address = ip.split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The rate-limit bucket of a client address: an IPv4 address (also IPv4-mapped IPv6) is its own;
 * an IPv6 address counts as its first `prefix` bits, since one customer gets a whole /56 (or /48)
 * and can rotate addresses inside it at will.
 */
export function ipBucket(ip: string, prefix: number): string {
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, prefix - i * 16));
    return bits === 0 ? 0 : g & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((g) => g.toString(16)).join(':')}/${prefix}`;
}

/**
 * Loads a script, retrying every half second until Redis answers. Once `redis` is closed for
 * good it gives up with a sha that loads nothing: the store's first use then fails and reloads,
 * instead of this rejecting where nobody listens.
 */
async function loadScriptUntilAnswered(redis: Redis, attempt: () => Promise<RedisReply>): Promise<RedisReply> {
  for (;;) {
    try {
      return await attempt();
    } catch {
      if (redis.status === 'end') return 'not-loaded';
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }
}

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
  // The store loads its scripts as it is built, before any request awaits them; the request
  // connection fails fast (no offline queue), so those loads are retried until Redis answers
  // rather than left to reject unobserved. A load on a request's behalf later fails fast as usual.
  // The store answers a failed EVALSHA by loading its script again; when the failure was Redis
  // itself (down, hung), that reload would double the request's wait, so it fails at once instead.
  let building = true;
  let failedAt = 0;
  const call = async (command: string, args: string[]): Promise<RedisReply> => {
    if (command === 'SCRIPT' && Date.now() - failedAt < config.dependencyTimeoutMs) throw new Error('Redis unavailable: not loading the script now');
    try {
      return (await redis.call(command, ...args)) as RedisReply;
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) failedAt = Date.now();
      throw err;
    }
  };
  const sendCommand = (command: string, ...args: string[]): Promise<RedisReply> =>
    building ? loadScriptUntilAnswered(redis, () => redis.call(command, ...args) as Promise<RedisReply>) : call(command, args);
  const store = new RedisStore({ sendCommand, prefix: `${config.redis.queuePrefix}:rl:` });
  building = false;
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
