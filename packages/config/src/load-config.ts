import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { checkShardProblems, checkShardsOf } from './check-shards';
import type { Config, PingBackendMode } from './config';
import { Env } from './env';

/** Thrown with one line per invalid variable; `main.ts` prints them and exits. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.join('\n')}`);
  }
}

/** Where Postgres and Redis are looked for when DATABASE_URL / REDIS_URL are not set. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/uptime';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const bool = (raw: string | undefined, fallback: boolean): boolean => (raw === undefined ? fallback : raw === 'true');

function parseTrustProxy(raw: string | undefined): string | number | boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** Every problem of the parsed env: the validators' (one sentence per variable) and the rules across variables. */
function problemsOf(env: Env, nodeEnv: Config['env']): string[] {
  const problems = validateSync(env, { whitelist: false }).flatMap((e) => {
    const constraints = Object.entries(e.constraints ?? {});
    // One sentence per variable: its type or format first ("PORT=eighty" also breaks its bounds).
    const [, message] = constraints.find(([name]) => name.startsWith('is')) ?? constraints[0] ?? [];
    return message === undefined ? [] : [`${e.property}: ${message.replace(`${e.property} `, '')}`];
  });
  if (nodeEnv === 'production' && !env.SESSION_SECRET) problems.push('SESSION_SECRET: is required when NODE_ENV=production');
  if (env.SESSION_SECRET !== undefined && env.SESSION_SECRET.length < 16) problems.push('SESSION_SECRET: must be at least 16 characters');
  for (const [provider, id, secret] of [
    ['GITHUB', env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET],
    ['GOOGLE', env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET],
  ] as const) {
    if (Boolean(id) !== Boolean(secret)) problems.push(`${provider}_CLIENT_SECRET: ${provider}_CLIENT_ID and ${provider}_CLIENT_SECRET must be set together`);
  }
  // Node closes a connection whose headers are not complete by then, so it must fit in the request's.
  if ((env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000) > (env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000))
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not be greater than HTTP_REQUEST_TIMEOUT_MS');
  problems.push(...checkShardProblems(env.CHECK_SHARDS, env.CHECK_WORKER_SHARDS));
  return problems;
}

/** A sign-in provider when its client id and secret are both set (problemsOf() refuses one without the other). */
const providerOf = <Urls extends object>(clientId: string | undefined, clientSecret: string | undefined, urls: Urls) =>
  clientId && clientSecret ? { clientId, clientSecret, ...urls } : undefined;

/** The sign-in providers configured, with their endpoints. */
function oauthOf(env: Env): Config['oauth'] {
  return {
    github: providerOf(env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET, {
      authorizationUrl: env.GITHUB_AUTHORIZATION_URL ?? 'https://github.com/login/oauth/authorize',
      tokenUrl: env.GITHUB_TOKEN_URL ?? 'https://github.com/login/oauth/access_token',
      userProfileUrl: env.GITHUB_USER_PROFILE_URL ?? 'https://api.github.com/user',
      userEmailUrl: env.GITHUB_USER_EMAIL_URL ?? 'https://api.github.com/user/emails',
    }),
    google: providerOf(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, {
      authorizationUrl: env.GOOGLE_AUTHORIZATION_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env.GOOGLE_TOKEN_URL ?? 'https://www.googleapis.com/oauth2/v4/token',
      userProfileUrl: env.GOOGLE_USER_PROFILE_URL ?? 'https://www.googleapis.com/oauth2/v3/userinfo',
    }),
  };
}

/** Validates `source` (default `process.env`) against docs/configuration.md and returns the typed config. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const env = plainToInstance(Env, present);
  const nodeEnv = (env.NODE_ENV ?? 'development') as Config['env'];
  const problems = problemsOf(env, nodeEnv);
  if (problems.length > 0) throw new ConfigError(problems);

  const redis = { url: env.REDIS_URL ?? env.TEST_DEFAULT_REDIS_URL ?? DEFAULT_REDIS_URL, queuePrefix: env.QUEUE_PREFIX ?? 'uptime' };
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/+$/, '');
  const config: Config = {
    env: nodeEnv,
    http: { port: env.PORT ?? 3000, host: env.HOST ?? '127.0.0.1', publicUrl, appUrl: env.APP_URL ?? publicUrl },
    databaseUrl: env.DATABASE_URL ?? env.TEST_DEFAULT_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    redis,
    checkShards: checkShardsOf(env.CHECK_SHARDS, env.CHECK_WORKER_SHARDS, redis),
    session: { secret: env.SESSION_SECRET ?? randomBytes(32).toString('hex'), ttlSeconds: env.SESSION_TTL_SECONDS ?? 604800 },
    oauth: oauthOf(env),
    adminEmails: list(env.ADMIN_EMAILS).map((e) => e.toLowerCase()),
    mail: {
      from: env.MAIL_FROM ?? 'uptime@localhost',
      sendgrid: env.SENDGRID_API_KEY
        ? { apiKey: env.SENDGRID_API_KEY, apiUrl: (env.SENDGRID_API_URL ?? 'https://api.sendgrid.com').replace(/\/+$/, '') }
        : undefined,
      smtpUrl: env.SMTP_URL,
    },
    channelServices: {
      telegramApiUrl: (env.TELEGRAM_API_URL ?? 'https://api.telegram.org').replace(/\/+$/, ''),
      pagerdutyEventsUrl: env.PAGERDUTY_EVENTS_URL ?? 'https://events.pagerduty.com/v2/enqueue',
      pushoverApiUrl: env.PUSHOVER_API_URL ?? 'https://api.pushover.net/1/messages.json',
    },
    rateLimitPerHour: env.RATE_LIMIT_PER_HOUR ?? 1000,
    publicPages: {
      rateLimitPerMinute: env.PUBLIC_RATE_LIMIT_PER_MINUTE ?? 300,
      cacheSeconds: env.PUBLIC_CACHE_SECONDS ?? 30,
      subscribeLimitPerHour: { ip: env.SUBSCRIBE_RATE_LIMIT_PER_HOUR ?? 10, page: env.SUBSCRIBE_PAGE_RATE_LIMIT_PER_HOUR ?? 100 },
    },
    pingRateLimitPerMinute: env.PING_RATE_LIMIT_PER_MINUTE ?? 6000,
    minCheckIntervalSeconds: env.MIN_CHECK_INTERVAL_SECONDS ?? 30,
    allowPrivateTargets: bool(env.ALLOW_PRIVATE_TARGETS, false),
    corsOrigins: list(env.CORS_ORIGINS),
    requireHttps: bool(env.REQUIRE_HTTPS, nodeEnv === 'production'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    checkConcurrency: env.CHECK_CONCURRENCY ?? 1000,
    pingBackend: (env.PING_BACKEND ?? 'auto') as PingBackendMode,
    checkLockTtlMs: env.CHECK_LOCK_TTL_MS,
    checkWorkerLivenessTtlMs: env.CHECK_WORKER_LIVENESS_TTL_MS,
    deliveryLeaseMs: env.DELIVERY_LEASE_MS,
    checkLocation: env.CHECK_LOCATION?.trim() || 'local',
    resultBuffer: { memoryMax: env.RESULT_BUFFER_MEMORY_MAX ?? 20_000, redisMax: env.RESULT_BUFFER_REDIS_MAX ?? 500_000 },
    logLevel: env.LOG_LEVEL ?? 'info',
    logFormat: env.LOG_FORMAT as Config['logFormat'],
    local: {
      dataDir: env.DATA_DIR,
      embeddedPostgresDir: env.EMBEDDED_POSTGRES_DIR,
      databaseUrlSet: env.DATABASE_URL !== undefined,
      redisUrlSet: env.REDIS_URL !== undefined,
    },
    secrets: { key: env.SECRETS_KEY, previousKey: env.SECRETS_KEY_PREVIOUS },
    resultRetentionDays: env.RESULT_RETENTION_DAYS ?? 90,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS ?? 90,
    healthPort: env.HEALTH_PORT,
    healthHost: env.HEALTH_HOST ?? '127.0.0.1',
    // Relative to the working directory, as a self-hoster types it.
    webDistDir: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : undefined,
    dependencyTimeoutMs: env.DEPENDENCY_TIMEOUT_MS ?? 1500,
    httpTimeouts: {
      headersMs: env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000,
      requestMs: env.HTTP_REQUEST_TIMEOUT_MS ?? 30_000,
      keepAliveMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 30_000,
    },
    rateLimitIpv6Prefix: env.RATE_LIMIT_IPV6_PREFIX ?? 56,
  };
  return deepFreeze(config);
}

/**
 * The config with Redis at `url` instead of REDIS_URL (`pnpm start`'s private redis-server:
 * docs/first-run.md): the shards of the checks queue that lived on REDIS_URL (the one shard
 * without CHECK_SHARDS) move with it.
 */
export function withRedisUrl(config: Config, url: string): Config {
  const shards = config.checkShards.shards.map((s) => (s.url === config.redis.url ? { ...s, url } : s));
  return deepFreeze({ ...config, redis: { ...config.redis, url }, checkShards: { ...config.checkShards, shards } });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** For `main.ts`: load the config or print one line per problem and exit 1. */
export function loadConfigOrExit(source: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(source);
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`config error: ${line}\n`);
      process.exit(1);
    }
    throw err;
  }
}
