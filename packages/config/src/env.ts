import 'reflect-metadata';
import { IsBooleanString, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { PING_BACKEND_MODES } from './config';

/** A 32-byte key: 64 hex digits, or base64 (standard or URL-safe) of 32 bytes. */
const SECRETS_KEY_FORMAT = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

const URL_OPTS = { require_tld: false, require_protocol: true } as const;

/** The raw environment, exactly as named in docs/configuration.md. Unset values are undefined. */
export class Env {
  @IsOptional() @IsIn(['development', 'production', 'test']) NODE_ENV?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) PORT?: number;
  @IsOptional() @IsString() HOST?: string;
  @IsOptional() @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' }) DATABASE_URL?: string;
  @IsOptional() @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' }) REDIS_URL?: string;
  @IsOptional() @Matches(/^[A-Za-z0-9_.-]+$/, { message: 'may hold only letters, digits, "_", "." and "-"' })
  QUEUE_PREFIX?: string;
  @IsOptional() @IsUrl(URL_OPTS) PUBLIC_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) APP_URL?: string;
  @IsOptional() @IsString() SESSION_SECRET?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(60) SESSION_TTL_SECONDS?: number;
  @IsOptional() @IsString() GITHUB_CLIENT_ID?: string;
  @IsOptional() @IsString() GITHUB_CLIENT_SECRET?: string;
  @IsOptional() @IsUrl(URL_OPTS) GITHUB_AUTHORIZATION_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) GITHUB_TOKEN_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) GITHUB_USER_PROFILE_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) GITHUB_USER_EMAIL_URL?: string;
  @IsOptional() @IsString() GOOGLE_CLIENT_ID?: string;
  @IsOptional() @IsString() GOOGLE_CLIENT_SECRET?: string;
  @IsOptional() @IsUrl(URL_OPTS) GOOGLE_AUTHORIZATION_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) GOOGLE_TOKEN_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) GOOGLE_USER_PROFILE_URL?: string;
  @IsOptional() @IsString() ADMIN_EMAILS?: string;
  @IsOptional() @IsString() MAIL_FROM?: string;
  @IsOptional() @IsString() SENDGRID_API_KEY?: string;
  @IsOptional() @IsUrl(URL_OPTS) SENDGRID_API_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) TELEGRAM_API_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) PAGERDUTY_EVENTS_URL?: string;
  @IsOptional() @IsUrl(URL_OPTS) PUSHOVER_API_URL?: string;
  @IsOptional() @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' }) SMTP_URL?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) RATE_LIMIT_PER_HOUR?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) PUBLIC_RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) PING_RATE_LIMIT_PER_MINUTE?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) SUBSCRIBE_RATE_LIMIT_PER_HOUR?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) SUBSCRIBE_PAGE_RATE_LIMIT_PER_HOUR?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(3600) PUBLIC_CACHE_SECONDS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(86400) MIN_CHECK_INTERVAL_SECONDS?: number;
  @IsOptional() @IsBooleanString() ALLOW_PRIVATE_TARGETS?: string;
  @IsOptional() @IsString() CORS_ORIGINS?: string;
  @IsOptional() @IsBooleanString() REQUIRE_HTTPS?: string;
  @IsOptional() @IsString() TRUST_PROXY?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(10000) CHECK_CONCURRENCY?: number;
  @IsOptional() @IsIn(PING_BACKEND_MODES) PING_BACKEND?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(600000) CHECK_LOCK_TTL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(60000) CHECK_WORKER_LIVENESS_TTL_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(600000) DELIVERY_LEASE_MS?: number;
  // Lists, checked together in check-shards.ts (a shard number must exist in CHECK_SHARDS).
  @IsOptional() @IsString() CHECK_SHARDS?: string;
  @IsOptional() @IsString() CHECK_WORKER_SHARDS?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(10_000_000) RESULT_BUFFER_MEMORY_MAX?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(100_000_000) RESULT_BUFFER_REDIS_MAX?: number;
  @IsOptional() @Matches(/^[A-Za-z0-9 ._:/()-]{1,64}$/, { message: 'must be 1-64 letters, digits, spaces or "._:/()-"' }) CHECK_LOCATION?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(3650) RESULT_RETENTION_DAYS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(3650) AUDIT_RETENTION_DAYS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(65535) HEALTH_PORT?: number;
  @IsOptional() @IsString() HEALTH_HOST?: string;
  @IsOptional() @IsString() WEB_DIST_DIR?: string;
  @IsOptional() @IsIn(['json', 'pretty']) LOG_FORMAT?: string;
  @IsOptional() @IsString() DATA_DIR?: string;
  @IsOptional() @Matches(SECRETS_KEY_FORMAT, { message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)' }) SECRETS_KEY?: string;
  @IsOptional() @Matches(SECRETS_KEY_FORMAT, { message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32)' }) SECRETS_KEY_PREVIOUS?: string;
  @IsOptional() @IsString() EMBEDDED_POSTGRES_DIR?: string;
  // Tests only: the default addresses that `pnpm start` probes, pointed at closed ports so a test
  // sees what a machine without Postgres or Redis sees (docs/configuration.md).
  @IsOptional() @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// URL' }) TEST_DEFAULT_DATABASE_URL?: string;
  @IsOptional() @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// URL' }) TEST_DEFAULT_REDIS_URL?: string;
  @IsOptional() @Type(() => Number) @IsInt() @Min(100) @Max(60000) DEPENDENCY_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(600000) HTTP_HEADERS_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(3600000) HTTP_REQUEST_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1000) @Max(600000) HTTP_KEEP_ALIVE_TIMEOUT_MS?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(128) RATE_LIMIT_IPV6_PREFIX?: number;
}
