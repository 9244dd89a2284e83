import { loadConfig, type Config } from '@uptime/config';

/**
 * The config of a test: this run's database and queue prefix (set by jest's global setup),
 * loopback targets allowed, 1 s intervals accepted, no rate limit, quiet logs.
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: process.env.QUEUE_PREFIX,
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_PER_HOUR: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...overrides,
  });
}
