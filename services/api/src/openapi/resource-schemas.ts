import {
  AGENT_STATUSES,
  HTTP_METHODS,
  MONITOR_STATUSES,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TYPES,
  OAUTH_PROVIDERS,
  THEMES,
  USER_ROLES,
  type NotificationErrorDetails,
} from '@uptime/db';
import type { ReadinessReport } from '@uptime/observability';
import type { AgentResponse } from '../agents/agent.presenter';
import type { AgentStats, AgentStatsRow } from '../agents/agent-stats.repository';
import type { AgentValidation } from '../agents/validate-agent';
import type { TokenResponse } from '../auth/token.presenter';
import type { UserResponse } from '../auth/user.presenter';
import type { toDashboardResponse } from '../dashboard/dashboard.routes';
import type { toAlertSettingsResponse } from '../monitors/alert-settings.service';
import type { BulkOutcome } from '../monitors/bulk.service';
import type { toCheckResultResponse } from '../monitors/check-results.service';
import type { LocationResultItem } from '../monitors/location-results.repository';
import type { MonitorResponse } from '../monitors/monitor.presenter';
import { STATS_GRANULARITIES, STATS_PERIODS } from '../monitors/stats.query';
import type { toStatsResponse } from '../monitors/stats.presenter';
import type { toTestResultResponse } from '../monitors/test-check';
import type { toAcknowledgementResponse, NotificationResponse, toResolutionResponse } from '../notifications/notification.presenter';
import type { toPreferencesResponse } from '../preferences/preferences.presenter';
import { ERROR_CODES } from '@uptime/errors';
import { deliverySchemas, optionalKeys } from './delivery-schemas';
import { arrayOf, bool, enumOf, int, nullable, num, objectOf, ref, str, timestamp, type JsonSchema } from './json-schema';

type Stats = ReturnType<typeof toStatsResponse>;
type Dashboard = ReturnType<typeof toDashboardResponse>;

const id = (description?: string): JsonSchema => int({ minimum: 1, ...(description ? { description } : {}) });
const percent = (description: string): JsonSchema => nullable(num({ minimum: 0, maximum: 100, description: `${description}; null without checks` }));
const ms = (description: string): JsonSchema => nullable(int({ minimum: 0, description: `${description}, milliseconds` }));
const uptimeWindows = (what: string): JsonSchema =>
  objectOf<Stats['uptime']>({ '24h': percent(`${what}, last 24 hours`), '7d': percent(`${what}, last 7 days`), '30d': percent(`${what}, last 30 days`) });

const monitor = objectOf<MonitorResponse>(
  {
    id: id(),
    name: str({ maxLength: 200 }),
    url: str({ format: 'uri' }),
    type: enumOf(['http']),
    method: enumOf(HTTP_METHODS),
    headers: { type: 'object', additionalProperties: str(), description: 'Request headers sent with each check' },
    body: nullable(str({ description: 'Request body sent with each check' })),
    expected_status: arrayOf(int({ minimum: 100, maximum: 599 }), { description: 'Statuses counted as up; empty means any 2xx' }),
    timeout: int({ minimum: 5, maximum: 300, description: 'Seconds' }),
    check_interval: int({ minimum: 1, maximum: 86400, description: 'Seconds between checks' }),
    retry_count: int({ minimum: 0, maximum: 10, description: 'Retries of a failed attempt within one check' }),
    follow_redirects: bool(),
    verify_ssl: bool(),
    expected_content: nullable(str({ description: 'Text the body must contain' })),
    excluded_content: nullable(str({ description: 'Text the body must not contain' })),
    json_path: nullable(str({ description: 'JSONPath that must exist in a JSON body' })),
    expected_json_value: nullable(str({ description: "Expected value of json_path's first match, as a string" })),
    locations: arrayOf(str()),
    tags: arrayOf(str()),
    status: enumOf(MONITOR_STATUSES, { description: 'pending until the first check; paused while paused (contract §5)' }),
    uptime_24h: percent('Uptime percentage over the last 24 hours'),
    uptime_7d: percent('Uptime percentage over the last 7 days'),
    uptime_30d: percent('Uptime percentage over the last 30 days'),
    response_time: ms('Response time of the last check'),
    last_check: nullable(timestamp()),
    last_success: nullable(timestamp()),
    last_failure: nullable(timestamp()),
    paused_at: nullable(timestamp()),
    pause_reason: nullable(str()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  { description: 'A monitor (contract §5)' },
);

const locationResult = objectOf<LocationResultItem>({
  location: str(),
  status: enumOf(['up', 'down', 'error'], { description: 'error: the agent did not answer (not counted in the vote)' }),
  status_code: nullable(int()),
  response_time: ms('Response time at this location'),
  error: nullable(str()),
});

const checkResult = objectOf<ReturnType<typeof toCheckResultResponse>>(
  {
    id: id(),
    checked_at: timestamp(),
    status: enumOf(['up', 'down']),
    status_code: nullable(int()),
    response_time: ms('Response time'),
    error: nullable(str()),
    location: nullable(str({ description: 'null for a check made by the worker itself' })),
    locations: arrayOf(ref('LocationResult'), { description: "Each location's result when the check also ran through agents" }),
  },
  { description: 'One recorded check' },
);

const testResult = objectOf<ReturnType<typeof toTestResultResponse>>(
  {
    status: enumOf(['up', 'down']),
    response_time: ms('Response time'),
    status_code: nullable(int()),
    checked_at: timestamp(),
    error: nullable(str()),
  },
  { description: 'The result of a dry-run check (nothing recorded)' },
);

const stats = objectOf<Stats>(
  {
    period: enumOf(Object.keys(STATS_PERIODS)),
    granularity: enumOf(Object.keys(STATS_GRANULARITIES)),
    uptime: uptimeWindows('Uptime percentage'),
    response_times: objectOf<Stats['response_times']>({
      avg: ms('Mean'),
      min: ms('Fastest'),
      max: ms('Slowest'),
      p95: ms('95th percentile'),
    }),
    incidents: objectOf<Stats['incidents']>({
      count: int({ minimum: 0 }),
      total_downtime: int({ minimum: 0, description: 'Seconds of downtime within the period' }),
    }),
    checks: objectOf<Stats['checks']>({ total: int({ minimum: 0 }), successful: int({ minimum: 0 }), failed: int({ minimum: 0 }) }),
    series: arrayOf(
      objectOf<Stats['series'][number]>({
        timestamp: timestamp({ description: 'Start of the bucket' }),
        uptime: percent('Uptime in the bucket'),
        avg_response_time: ms('Mean response time in the bucket'),
        checks: int({ minimum: 0 }),
      }),
      { description: 'One bucket per granularity step over the period' },
    ),
  },
  { description: 'Statistics of a monitor over a period' },
);

const alertSettings = optionalKeys(
  objectOf<ReturnType<typeof toAlertSettingsResponse>>(
    {
      email_enabled: bool(),
      email_recipients: arrayOf(str({ format: 'email' }), { description: "Empty: the owner's address" }),
      slack_enabled: bool({ description: 'Sends each alert to slack_webhook_url' }),
      slack_webhook_url: nullable(str({ format: 'uri', maxLength: 2048, description: "Slack's incoming-webhook URL; required while slack_enabled" })),
      webhook_enabled: bool({ description: 'Sends each alert, signed, to webhook_url (docs/webhooks.md)' }),
      webhook_url: nullable(str({ format: 'uri', maxLength: 2048, description: 'Required while webhook_enabled' })),
      webhook_secret_set: bool({ description: 'Whether the webhook has a signing key (it is shown only once, in webhook_secret)' }),
      webhook_secret: str({
        maxLength: 128,
        pattern: '^whsec_[0-9a-f]{64}$',
        description: 'The webhook signing key, present only in the answer that generated it: enabling the webhook the first time, or POST .../alerts/webhook-secret',
      }),
      alert_on_recovery: bool(),
      alert_threshold: int({ minimum: 1, maximum: 100, description: 'Consecutive failures before offline' }),
    },
    { description: "A monitor's alert settings" },
  ),
  ['webhook_secret'],
);

const bulkOutcome = objectOf<BulkOutcome>({
  succeeded: arrayOf(id()),
  failed: arrayOf(
    objectOf<BulkOutcome['failed'][number]>({
      id: id(),
      error: objectOf<BulkOutcome['failed'][number]['error']>({ code: enumOf(ERROR_CODES), message: str() }),
    }),
  ),
});

const notification = objectOf<NotificationResponse>(
  {
    id: id(),
    monitor_id: id(),
    monitor_name: str(),
    monitor_url: str({ format: 'uri' }),
    type: enumOf(NOTIFICATION_TYPES),
    message: str(),
    status: enumOf(NOTIFICATION_STATUSES),
    started_at: timestamp(),
    resolved_at: nullable(timestamp()),
    duration: nullable(int({ minimum: 0, description: 'Seconds from started_at to resolved_at; null while active' })),
    notification_method: enumOf(['email']),
    acknowledged: bool(),
    acknowledged_at: nullable(timestamp()),
    email_sent_at: nullable(timestamp({ description: 'When the mail transport accepted the email' })),
    error_details: nullable(
      objectOf<NotificationErrorDetails>({ status_code: nullable(int()), response_time: ms('Response time'), error_message: str() }),
    ),
    created_at: timestamp(),
    possible_duplicate: bool({ description: 'One of its deliveries may have reached its receiver twice (see NotificationDelivery)' }),
  },
  { description: 'A downtime or recovery notification (contract §6)' },
);

const agent = objectOf<AgentResponse>(
  {
    id: id(),
    name: str(),
    location: str(),
    url: str({ format: 'uri' }),
    status: enumOf(AGENT_STATUSES),
    is_public: bool(),
    owner_id: id(),
    version: nullable(str()),
    last_seen_at: nullable(timestamp()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  { description: 'A monitoring agent (contract §7); never carries its secret' },
);

const agentStatsRow = objectOf<AgentStatsRow>({
  agent_id: id(),
  name: str(),
  location: str(),
  status: enumOf(AGENT_STATUSES),
  is_public: bool(),
  last_seen_at: nullable(timestamp()),
  checks: int({ minimum: 0 }),
  errors: int({ minimum: 0, description: 'Calls the agent did not answer' }),
  failures: int({ minimum: 0, description: 'Checks the agent answered with down' }),
  error_rate: percent('errors / checks × 100'),
  avg_latency_ms: ms('Mean round trip'),
  p95_latency_ms: ms('95th percentile round trip'),
});

const user = objectOf<UserResponse>(
  {
    id: id(),
    email: str({ format: 'email' }),
    name: nullable(str()),
    provider: nullable(enumOf(OAUTH_PROVIDERS, { description: 'Provider of the current session; null for a bearer token' })),
    providers: arrayOf(enumOf(OAUTH_PROVIDERS), { description: 'Every linked provider' }),
    avatar_url: nullable(str({ format: 'uri' })),
    role: enumOf(USER_ROLES),
    created_at: timestamp(),
    last_login: nullable(timestamp()),
  },
  { description: 'The signed-in user' },
);

const token = objectOf<TokenResponse>(
  { id: id(), name: str(), created_at: timestamp(), expires_at: nullable(timestamp()), last_used_at: nullable(timestamp()) },
  { description: 'An API token (never its value)' },
);

const dashboard = objectOf<Dashboard>(
  {
    monitors: objectOf<Dashboard['monitors']>({
      total: int({ minimum: 0 }),
      online: int({ minimum: 0 }),
      offline: int({ minimum: 0 }),
      warning: int({ minimum: 0 }),
      pending: int({ minimum: 0 }),
      paused: int({ minimum: 0 }),
    }),
    uptime: uptimeWindows('Mean uptime of the monitors with checks'),
    response_time_avg_24h: ms('Mean response time over the last 24 hours'),
    active_incidents: int({ minimum: 0 }),
    down_monitors: arrayOf(
      objectOf<Dashboard['down_monitors'][number]>({
        id: id(),
        name: str(),
        url: str({ format: 'uri' }),
        since: nullable(timestamp({ description: 'Start of the open downtime' })),
      }),
    ),
    recent_notifications: arrayOf(ref('Notification'), { maxItems: 5 }),
  },
  { description: 'GET /dashboard (contract §8)' },
);

const preferences = objectOf<ReturnType<typeof toPreferencesResponse>>(
  {
    timezone: str({ description: 'IANA time zone' }),
    email_notifications: bool(),
    default_check_interval: int({ minimum: 1, maximum: 86400 }),
    default_timeout: int({ minimum: 5, maximum: 300 }),
    default_locations: arrayOf(str()),
    theme: enumOf(THEMES),
  },
  { description: 'A user’s preferences (contract §8)' },
);

/** The resources the API answers with, by component name. */
export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  Monitor: monitor,
  LocationResult: locationResult,
  CheckResult: checkResult,
  TestResult: testResult,
  MonitorStats: stats,
  AlertSettings: alertSettings,
  BulkOutcome: bulkOutcome,
  Notification: notification,
  ...deliverySchemas(notification),
  Acknowledgement: objectOf<ReturnType<typeof toAcknowledgementResponse>>({
    id: id(),
    acknowledged: bool(),
    acknowledged_at: nullable(timestamp()),
  }),
  Resolution: objectOf<ReturnType<typeof toResolutionResponse>>({
    id: id(),
    status: enumOf(NOTIFICATION_STATUSES),
    resolved_at: nullable(timestamp()),
    duration: nullable(int({ minimum: 0 })),
  }),
  Agent: agent,
  AgentWithSecret: objectOf<AgentResponse & { secret: string }>(
    { ...(agent.properties as { [K in keyof AgentResponse]: JsonSchema }), secret: str({ description: 'HMAC-SHA256 key, hex' }) },
    { description: 'The new agent with its HMAC secret, shown here once (later only by /credentials)' },
  ),
  AgentCredentials: objectOf<{ agent_id: number; secret: string }>({ agent_id: id(), secret: str({ description: 'HMAC-SHA256 key, hex' }) }),
  AgentValidation: objectOf<AgentValidation>({
    reachable: bool(),
    latency_ms: ms('Round trip of the health call'),
    version: nullable(str()),
    error: nullable(str()),
    checked_at: timestamp(),
  }),
  AgentStats: objectOf<AgentStats>({
    period: enumOf(['24h']),
    from: timestamp(),
    to: timestamp(),
    totals: objectOf<AgentStats['totals']>({
      agents: int({ minimum: 0 }),
      active: int({ minimum: 0 }),
      inactive: int({ minimum: 0 }),
      maintenance: int({ minimum: 0 }),
      unreachable: int({ minimum: 0 }),
      checks: int({ minimum: 0 }),
      errors: int({ minimum: 0 }),
      failures: int({ minimum: 0 }),
    }),
    agents: arrayOf(agentStatsRow),
  }),
  User: user,
  Token: token,
  CreatedToken: objectOf<Omit<TokenResponse, 'last_used_at'> & { token: string }>(
    {
      id: id(),
      name: str(),
      token: str({ pattern: '^upt_[A-Za-z0-9_-]{40,}$', description: 'The token itself, shown only in this answer' }),
      created_at: timestamp(),
      expires_at: nullable(timestamp()),
    },
    { description: 'A new API token with its value' },
  ),
  Dashboard: dashboard,
  Preferences: preferences,
  Health: objectOf<{ status: string }>({ status: enumOf(['ok']) }),
  Readiness: objectOf<Omit<ReadinessReport, 'ready'> & { status: string }>({
    status: enumOf(['ready', 'unavailable']),
    checks: {
      type: 'object',
      description: 'By dependency (database, redis)',
      additionalProperties: {
        type: 'object',
        required: ['ok', 'latency_ms'],
        additionalProperties: false,
        properties: { ok: bool(), latency_ms: num({ minimum: 0 }), error: str() },
      },
    },
  }),
};
