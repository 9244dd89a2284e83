import { randomBytes } from 'node:crypto';

/** Where a bench's services keep their state: a database and a queue prefix of the bench's own. */
export interface BenchServiceTarget {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
}

/**
 * The settings every bench runs the services with: production mode, as an operator would run them
 * (with fresh secrets: production refuses to start without the key that seals channel secrets,
 * docs/channels.md), plain HTTP on loopback, and no per-hour rate limit, which a bench's one
 * caller would otherwise reach. Each bench adds what is its own (ports, concurrency, log level).
 */
export function benchServiceEnv(target: BenchServiceTarget): Record<string, string> {
  return {
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    REQUIRE_HTTPS: 'false',
    DATABASE_URL: target.databaseUrl,
    REDIS_URL: target.redisUrl,
    QUEUE_PREFIX: target.prefix,
    RATE_LIMIT_PER_HOUR: '0',
  };
}
