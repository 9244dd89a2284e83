import type { CheckShardConfig } from './check-shards';

/** How a check-worker may send ping checks' echo requests (PING_BACKEND, `Config.pingBackend`). */
export const PING_BACKEND_MODES = ['auto', 'sockets', 'iputils'] as const;
export type PingBackendMode = (typeof PING_BACKEND_MODES)[number];

/** The validated, typed configuration of every process (docs/configuration.md). Frozen after loading. */
export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly http: { readonly port: number; readonly host: string; readonly publicUrl: string; readonly appUrl: string };
  readonly databaseUrl: string;
  readonly redis: { readonly url: string; readonly queuePrefix: string };
  /**
   * The shards of the checks queue (CHECK_SHARDS; unset: one, on REDIS_URL and QUEUE_PREFIX) and
   * the ones a check-worker takes as its own (CHECK_WORKER_SHARDS; unset: all). docs/scaling.md.
   */
  readonly checkShards: { readonly shards: readonly CheckShardConfig[]; readonly workerShards: readonly number[] };
  readonly session: { readonly secret: string; readonly ttlSeconds: number };
  readonly oauth: {
    readonly github?: OAuthProviderConfig & { readonly userEmailUrl: string };
    readonly google?: OAuthProviderConfig;
  };
  readonly adminEmails: readonly string[];
  readonly mail: {
    readonly from: string;
    readonly sendgrid?: { readonly apiKey: string; readonly apiUrl: string };
    readonly smtpUrl?: string;
  };
  /**
   * Where the channels of services at a fixed address send (docs/channels.md): Telegram's Bot API
   * base (`${telegramApiUrl}/bot<token>/sendMessage`), PagerDuty's Events API v2 enqueue URL and
   * Pushover's messages URL. Overridden for tests and self-hosted Bot API servers.
   */
  readonly channelServices: { readonly telegramApiUrl: string; readonly pagerdutyEventsUrl: string; readonly pushoverApiUrl: string };
  readonly rateLimitPerHour: number;
  /** Public status pages and badges (docs/status-pages.md): per-IP limit a minute (0 = off) and cache lifetime. */
  readonly publicPages: {
    readonly rateLimitPerMinute: number;
    readonly cacheSeconds: number;
    /** Subscription requests an hour per IP and per page (docs/status-pages.md, "Subscribers"); 0 disables one. */
    readonly subscribeLimitPerHour: { readonly ip: number; readonly page: number };
  };
  /** Heartbeat pings a minute per IP (docs/heartbeats.md); 0: no limit. */
  readonly pingRateLimitPerMinute: number;
  readonly minCheckIntervalSeconds: number;
  readonly allowPrivateTargets: boolean;
  readonly corsOrigins: readonly string[];
  readonly requireHttps: boolean;
  readonly trustProxy?: string | number | boolean;
  /**
   * The most checks a worker process runs at once (CHECK_CONCURRENCY; 1,000 when unset). Every
   * process starts at 50 and sizes itself below this from its measured load (docs/capacity.md).
   */
  readonly checkConcurrency: number;
  /**
   * How a check-worker sends ping checks' echo requests (PING_BACKEND; auto when unset):
   * `sockets`, the ICMP sockets of the probe's native addon in the worker's own process;
   * `iputils`, a `ping` process per check; `auto`, sockets when the addon was built and opens
   * one, else iputils (docs/operations.md, "ICMP ping").
   */
  readonly pingBackend: PingBackendMode;
  /**
   * How long a check's per-monitor lock lives without its owner renewing it (CHECK_LOCK_TTL_MS;
   * unset: the check-worker's 15 s): a killed worker's monitors are checked again after at most
   * this. docs/reliability.md.
   */
  readonly checkLockTtlMs?: number;
  /**
   * How long a check-worker process may go without renewing its liveness before its peers take
   * its checks back (CHECK_WORKER_LIVENESS_TTL_MS; unset: the check-worker's 3 s). Longer than
   * the event-loop stalls of the host, shorter than the shortest interval. docs/reliability.md.
   */
  readonly checkWorkerLivenessTtlMs?: number;
  /**
   * How long a notifier's claim on a delivery lives without its sender renewing it
   * (DELIVERY_LEASE_MS; unset: the notifier's send timeout + 10 s): a killed notifier's emails
   * are sent again by another after at most this plus one sweep. docs/reliability.md.
   */
  readonly deliveryLeaseMs?: number;
  /** The name of the workers' own location in multi-location checks (CHECK_LOCATION, default `local`). */
  readonly checkLocation: string;
  /**
   * Where a check-worker keeps results it cannot write while Postgres is unreachable: this many
   * in its memory (RESULT_BUFFER_MEMORY_MAX), then this many more in Redis, shared by all workers
   * (RESULT_BUFFER_REDIS_MAX). docs/reliability.md.
   */
  readonly resultBuffer: { readonly memoryMax: number; readonly redisMax: number };
  readonly logLevel: string;
  /** LOG_FORMAT: unset = pretty when stdout is a terminal, JSON lines otherwise. */
  readonly logFormat?: 'json' | 'pretty';
  /**
   * What `pnpm start` may run by itself when nothing is configured (docs/first-run.md): where it
   * keeps their data, where the embedded PostgreSQL goes when, as root, its `postgres` user cannot
   * reach the repository or that data folder, and whether DATABASE_URL / REDIS_URL were set (then
   * they always win).
   */
  readonly local?: {
    readonly dataDir?: string;
    readonly embeddedPostgresDir?: string;
    readonly databaseUrlSet: boolean;
    readonly redisUrlSet: boolean;
  };
  /**
   * The keys that seal channel secrets in Postgres (docs/channels.md, "Secrets at rest"):
   * SECRETS_KEY seals and opens, SECRETS_KEY_PREVIOUS only opens, while a rotation re-seals.
   * Unset outside production: a key made once and kept in the data directory.
   */
  readonly secrets: { readonly key?: string; readonly previousKey?: string };
  readonly resultRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: audit log entries older than this are deleted by the API's maintenance job (docs/audit-log.md). */
  readonly auditRetentionDays: number;
  /**
   * Port of every process's health and metrics listener (`/healthz`, `/readyz`, `/metrics`;
   * docs/operations.md); unset = the process's default, 0 = an ephemeral port.
   */
  readonly healthPort?: number;
  /**
   * Address of that listener (HEALTH_HOST, 127.0.0.1 by default whatever HOST is): metrics stay
   * off the public port and off the network unless a deployment opens them to its scraper.
   */
  readonly healthHost: string;
  /** The built web app the api serves (WEB_DIST_DIR, absolute); unset = services/web/dist of this checkout. */
  readonly webDistDir?: string;
  /**
   * The API's deadline for one Postgres query, pool acquire or connect, and one Redis command on
   * the request path (DEPENDENCY_TIMEOUT_MS): past it the request is a 503, never a hang.
   */
  readonly dependencyTimeoutMs: number;
  /** Slow-client limits of the API's HTTP server, in milliseconds. */
  readonly httpTimeouts: { readonly headersMs: number; readonly requestMs: number; readonly keepAliveMs: number };
  /** IPv6 clients share one rate-limit bucket per prefix of this length (RATE_LIMIT_IPV6_PREFIX). */
  readonly rateLimitIpv6Prefix: number;
}

export interface OAuthProviderConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly userProfileUrl: string;
}
