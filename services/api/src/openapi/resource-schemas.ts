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
import type { toNoDataSpanResponse } from '../monitors/no-data.repository';
import { MAX_SERIES_BUCKETS, STATS_GRANULARITIES, STATS_PERIODS } from '../monitors/stats.query';
import type { toStatsResponse } from '../monitors/stats.presenter';
import type { toTestResultResponse } from '../monitors/test-check';
import type { toAcknowledgementResponse, NotificationResponse, toResolutionResponse } from '../notifications/notification.presenter';
import type { toPreferencesResponse } from '../preferences/preferences.presenter';
import { ERROR_CODES } from '@uptime/errors';
import { AgentFieldsDto } from '../agents/agent.dto';
import { CreateTokenDto } from '../auth/tokens.dto';
import { AlertSettingsDto } from '../monitors/alert-settings.dto';
import { BulkRequestDto } from '../monitors/bulk.dto';
import { MonitorFieldsDto } from '../monitors/monitor-fields.dto';
import { UpdatePreferencesDto } from '../preferences/preferences.dto';
import { deliverySchemas, optionalKeys } from './delivery-schemas';
import { escalationSettingsSchema } from './escalation-schemas';
import { schemaOfDto } from './dto-schema';
import { arrayOf, bool, enumOf, INT32_MAX, int, nullable, num, objectOf, ref, SAFE_INT_MAX, str, TEXT_MAX, timestamp, type JsonSchema } from './json-schema';

type Stats = ReturnType<typeof toStatsResponse>;
type Dashboard = ReturnType<typeof toDashboardResponse>;

/**
 * A writable field as the API answers it: the same schema the request is validated with (the
 * DTO's), so a stored value and the bound it was accepted under cannot disagree.
 */
function fieldsOf(dto: new () => object): (name: string, extra?: JsonSchema) => JsonSchema {
  const properties = schemaOfDto(dto).properties ?? {};
  return (name, extra = {}) => {
    const schema = properties[name];
    if (!schema) throw new Error(`${dto.name} has no field ${name}`);
    const { default: _default, ...rest } = schema;
    return { ...rest, ...extra };
  };
}
const monitorField = fieldsOf(MonitorFieldsDto);
const agentField = fieldsOf(AgentFieldsDto);
const preferenceField = fieldsOf(UpdatePreferencesDto);
const tokenName = fieldsOf(CreateTokenDto)('name');
/** agents.version is varchar(64); what an agent reports is cut to fit. */
const AGENT_VERSION_MAX = 64;
const agentStatus = enumOf(AGENT_STATUSES, {
  description:
    'active: answering; unreachable: set by the service when the agent did not answer, active again at its next answer; inactive, maintenance: set by the owner, not called (docs/agent-protocol.md)',
});
/** agents.secret is varchar(128). */
const agentSecret = str({ maxLength: 128, pattern: '^[0-9a-f]+$', description: 'HMAC-SHA256 key, hex' });

/** Ids of `integer` columns; check results have `bigint` ids. */
const id = (description?: string): JsonSchema => int({ minimum: 1, maximum: INT32_MAX, ...(description ? { description } : {}) });
const bigId = (): JsonSchema => int({ minimum: 1, maximum: SAFE_INT_MAX });
const count = (description?: string): JsonSchema => int({ minimum: 0, maximum: SAFE_INT_MAX, ...(description ? { description } : {}) });
/** Free text the service composes (errors, messages): bounded by the most it may quote. */
const text = (description?: string): JsonSchema => str({ maxLength: TEXT_MAX, ...(description ? { description } : {}) });
/** An HTTP status code as received (the parser takes three digits). */
const statusCode = (): JsonSchema => nullable(int({ minimum: 0, maximum: 999 }));
/** The location of a check: an agent's location (varchar 64). */
const location = (description?: string): JsonSchema => agentField('location', description ? { description } : {});
const percent = (description: string): JsonSchema => nullable(num({ minimum: 0, maximum: 100, description: `${description}; null without checks` }));
const ms = (description: string): JsonSchema => nullable(int({ minimum: 0, maximum: INT32_MAX, description: `${description}, milliseconds` }));
const uptimeWindows = (what: string): JsonSchema =>
  objectOf<Stats['uptime']>({ '24h': percent(`${what}, last 24 hours`), '7d': percent(`${what}, last 7 days`), '30d': percent(`${what}, last 30 days`) });

const monitor = objectOf<MonitorResponse>(
  {
    id: id(),
    name: monitorField('name'),
    url: monitorField('url', { format: 'uri' }),
    type: enumOf(['http']),
    method: enumOf(HTTP_METHODS),
    headers: monitorField('headers', { description: 'Request headers sent with each check' }),
    body: monitorField('body', { description: 'Request body sent with each check' }),
    expected_status: monitorField('expected_status', { description: 'Statuses counted as up; empty means any 2xx' }),
    timeout: monitorField('timeout', { description: 'Seconds' }),
    check_interval: monitorField('check_interval', { description: 'Seconds between checks' }),
    retry_count: monitorField('retry_count', { description: 'Retries of a failed attempt within one check' }),
    follow_redirects: bool(),
    verify_ssl: bool(),
    expected_content: monitorField('expected_content', { description: 'Text the body must contain' }),
    excluded_content: monitorField('excluded_content', { description: 'Text the body must not contain' }),
    json_path: monitorField('json_path', { description: 'JSONPath that must exist in a JSON body' }),
    expected_json_value: monitorField('expected_json_value', { description: "Expected value of json_path's first match, as a string" }),
    locations: monitorField('locations'),
    tags: monitorField('tags'),
    status: enumOf(MONITOR_STATUSES, {
      description:
        'pending: not checked since created or resumed; online: the last check succeeded; warning: failing, fewer times in a row than alert_threshold, or slow (see status_reason); offline: failed alert_threshold times in a row, a downtime is open until recovery_threshold successes in a row; paused: not checked (docs/monitors.md)',
    }),
    status_reason: nullable(enumOf(['failing', 'slow'], { description: 'Why the monitor reads warning: failing (failures below alert_threshold) or slow (a success slower than response_time_threshold); null otherwise (docs/alert-rules.md)' })),
    response_time_threshold: monitorField('response_time_threshold', { description: 'A success slower than this many milliseconds reads warning (slow); null: off' }),
    recovery_threshold: monitorField('recovery_threshold', { description: 'Successes in a row needed to go from offline to online' }),
    certificate_expires_at: nullable(timestamp({ description: "notAfter of the https target's leaf certificate as the last checks received it; null for http or when none was received (docs/alert-rules.md)" })),
    depends_on: monitorField('depends_on', { description: 'Ids of monitors this one depends on; while one is offline, its downtime notification is suppressed' }),
    uptime_24h: percent('Uptime percentage over the last 24 hours'),
    uptime_7d: percent('Uptime percentage over the last 7 days'),
    uptime_30d: percent('Uptime percentage over the last 30 days'),
    response_time: ms('Response time of the last check'),
    last_check: nullable(timestamp()),
    last_success: nullable(timestamp()),
    last_failure: nullable(timestamp()),
    paused_at: nullable(timestamp()),
    pause_reason: nullable(str({ maxLength: 500 })),
    in_maintenance: bool({ description: 'Whether its latest check fell in a maintenance window (docs/alert-rules.md)' }),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  { description: 'A monitor (docs/monitors.md)' },
);

const locationResult = objectOf<LocationResultItem>({
  location: location(),
  status: enumOf(['up', 'down', 'error'], { description: 'error: the agent did not answer (not counted in the vote)' }),
  status_code: statusCode(),
  response_time: ms('Response time at this location'),
  error: nullable(text()),
});

const checkResult = objectOf<ReturnType<typeof toCheckResultResponse>>(
  {
    id: bigId(),
    checked_at: timestamp(),
    status: enumOf(['up', 'down']),
    status_code: statusCode(),
    response_time: ms('Response time'),
    error: nullable(text()),
    maintenance: bool({ description: 'Made during a maintenance window: left out of uptime and statistics' }),
    location: nullable(location('null for a check made by the worker itself')),
    timings: ref('CheckTimings'),
    locations: arrayOf(ref('LocationResult'), {
      maxItems: monitorField('locations').maxItems,
      description: "Each location's result when the check also ran through agents",
    }),
  },
  { description: 'One recorded check' },
);

const checkTimings = objectOf<ReturnType<typeof toCheckResultResponse>['timings']>(
  {
    dns: ms('Name lookup (about 0 for an IP-literal host); null when not reached'),
    connect: ms('TCP connect; null when not reached'),
    tls: ms('TLS handshake; null for http, or when not reached'),
    first_byte: ms('From the request being sent to the first byte of the answer; null when none arrived'),
    total: ms('The whole attempt (equal to response_time)'),
  },
  {
    description:
      'Where the last attempt\'s time went (the last request when redirects were followed). Every check opens a fresh connection, so DNS, connect and TLS are measured each time. Phases of 32,767 ms or more are stored as 32767; checks recorded before timings were kept have null phases.',
  },
);

const testResult = objectOf<ReturnType<typeof toTestResultResponse>>(
  {
    status: enumOf(['up', 'down']),
    response_time: ms('Response time'),
    status_code: statusCode(),
    checked_at: timestamp(),
    error: nullable(text()),
    timings: ref('CheckTimings'),
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
      count: count(),
      total_downtime: count('Seconds of downtime within the period'),
    }),
    checks: objectOf<Stats['checks']>({ total: count(), successful: count(), failed: count() }),
    series: arrayOf(
      objectOf<Stats['series'][number]>({
        timestamp: timestamp({ description: 'Start of the bucket' }),
        uptime: percent('Uptime in the bucket'),
        avg_response_time: ms('Mean response time in the bucket'),
        checks: count(),
      }),
      { maxItems: MAX_SERIES_BUCKETS, description: 'One bucket per granularity step over the period' },
    ),
    no_data: objectOf<Stats['no_data']>(
      {
        total_seconds: int({ minimum: 0, maximum: 2_147_483_647, description: 'Seconds within the period when the monitor went unchecked' }),
        spans: arrayOf(ref('NoDataSpan'), { maxItems: 100, description: 'Newest first, at most 100' }),
      },
      { description: 'Time nobody checked the monitor (workers down, a queue backlog). Uptime leaves it out: it counts checks only.' },
    ),
  },
  { description: 'Statistics of a monitor over a period' },
);

const noDataSpan = objectOf<ReturnType<typeof toNoDataSpanResponse>>(
  {
    from: timestamp({ description: 'When the check after the last one was due' }),
    to: nullable(timestamp({ description: 'The check that resumed; null while the monitor still goes unchecked' })),
    duration: int({ minimum: 0, maximum: 2_147_483_647, description: 'Seconds, up to now while it goes on' }),
  },
  { description: 'A span of more than two intervals in which an active monitor was not checked ("no data")' },
);

const alertSettings = optionalKeys(
  objectOf<ReturnType<typeof toAlertSettingsResponse>>(
    {
      email_enabled: bool(),
      email_recipients: { ...schemaOfDto(AlertSettingsDto).properties!.email_recipients, description: "Empty: the owner's address" },
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
      ...escalationSettingsSchema(),
      alert_on_slow: bool({ description: 'A slow notification and email when the monitor becomes slow, and an email when it stops (docs/alert-rules.md)' }),
      certificate_expiry_days: int({
        minimum: 0,
        maximum: 365,
        description: 'A certificate notification and email once fewer days than this remain before certificate_expires_at; 0: off (docs/alert-rules.md)',
      }),
    },
    { description: "A monitor's alert settings" },
  ),
  ['webhook_secret'],
);

/** At most one entry per monitor of the request. */
const bulkLimit = { maxItems: schemaOfDto(BulkRequestDto).properties!.monitor_ids!.maxItems };
const bulkOutcome = objectOf<BulkOutcome>({
  succeeded: arrayOf(id(), bulkLimit),
  failed: arrayOf(
    objectOf<BulkOutcome['failed'][number]>({
      id: id(),
      error: objectOf<BulkOutcome['failed'][number]['error']>({ code: enumOf(ERROR_CODES), message: text() }),
    }),
    bulkLimit,
  ),
});

const notification = objectOf<NotificationResponse>(
  {
    id: id(),
    monitor_id: id(),
    monitor_name: monitorField('name'),
    monitor_url: monitorField('url', { format: 'uri' }),
    type: enumOf(NOTIFICATION_TYPES, {
      description:
        'downtime: the monitor went offline; recovery: it came back online; slow: it became slow (resolved when it stops); certificate: its TLS certificate is close to expiry (docs/notifications.md)',
    }),
    message: text(),
    status: enumOf(NOTIFICATION_STATUSES, {
      description:
        'active while the downtime, slowness or expiring certificate lasts; resolved when it ended (the monitor recovered, is fast again, or its certificate changed) or the user resolved it (a recovery is resolved at once)',
    }),
    started_at: timestamp(),
    resolved_at: nullable(timestamp()),
    duration: nullable(int({ minimum: 0, maximum: INT32_MAX, description: 'Seconds from started_at to resolved_at; null while active' })),
    notification_method: enumOf(['email']),
    acknowledged: bool(),
    acknowledged_at: nullable(timestamp()),
    email_sent_at: nullable(timestamp({ description: 'When the mail transport accepted the email' })),
    error_details: nullable(
      objectOf<NotificationErrorDetails>({ status_code: statusCode(), response_time: ms('Response time'), error_message: text() }),
    ),
    created_at: timestamp(),
    possible_duplicate: bool({ description: 'One of its deliveries may have reached its receiver twice (see NotificationDelivery)' }),
    suppressed: bool({ description: 'Recorded but sent to nobody: a monitor this one depends on (depends_on) was offline (docs/alert-rules.md)' }),
    suppressed_by: arrayOf(id(), { maxItems: 20, description: 'The offline monitors that suppressed it; empty when not suppressed' }),
  },
  { description: 'A downtime, recovery, slow or certificate notification (docs/notifications.md)' },
);

const agent = objectOf<AgentResponse>(
  {
    id: id(),
    name: agentField('name'),
    location: agentField('location'),
    url: agentField('url', { format: 'uri' }),
    status: agentStatus,
    is_public: bool(),
    owner_id: id(),
    version: nullable(str({ maxLength: AGENT_VERSION_MAX })),
    last_seen_at: nullable(timestamp()),
    created_at: timestamp(),
    updated_at: timestamp(),
  },
  { description: 'A monitoring agent (docs/agent-protocol.md); never carries its secret' },
);

const agentStatsRow = objectOf<AgentStatsRow>({
  agent_id: id(),
  name: agentField('name'),
  location: agentField('location'),
  status: agentStatus,
  is_public: bool(),
  last_seen_at: nullable(timestamp()),
  checks: count(),
  errors: count('Calls the agent did not answer'),
  failures: count('Checks the agent answered with down'),
  error_rate: percent('errors / checks × 100'),
  avg_latency_ms: ms('Mean round trip'),
  p95_latency_ms: ms('95th percentile round trip'),
});

const user = objectOf<UserResponse>(
  {
    id: id(),
    email: str({ format: 'email', maxLength: 320 }),
    name: nullable(str({ maxLength: 200 })),
    provider: nullable(enumOf(OAUTH_PROVIDERS, { description: 'Provider of the current session; null for a bearer token' })),
    providers: arrayOf(enumOf(OAUTH_PROVIDERS), { maxItems: OAUTH_PROVIDERS.length, description: 'Every linked provider' }),
    avatar_url: nullable(str({ format: 'uri', maxLength: TEXT_MAX })),
    role: enumOf(USER_ROLES),
    created_at: timestamp(),
    last_login: nullable(timestamp()),
  },
  { description: 'The signed-in user' },
);

const token = objectOf<TokenResponse>(
  { id: id(), name: tokenName, created_at: timestamp(), expires_at: nullable(timestamp()), last_used_at: nullable(timestamp()) },
  { description: 'An API token (never its value)' },
);

const dashboard = objectOf<Dashboard>(
  {
    monitors: objectOf<Dashboard['monitors']>({
      total: count(),
      online: count(),
      offline: count(),
      warning: count(),
      pending: count(),
      paused: count(),
    }),
    uptime: uptimeWindows('Mean uptime of the monitors with checks'),
    response_time_avg_24h: ms('Mean response time over the last 24 hours'),
    active_incidents: count(),
    down_monitors: arrayOf(
      objectOf<Dashboard['down_monitors'][number]>({
        id: id(),
        name: monitorField('name'),
        url: monitorField('url', { format: 'uri' }),
        since: nullable(timestamp({ description: 'Start of the open downtime' })),
      }),
      { maxItems: INT32_MAX, description: 'Every offline monitor of the caller' },
    ),
    recent_notifications: arrayOf(ref('Notification'), { maxItems: 5 }),
    checks: objectOf<Dashboard['checks']>(
      {
        per_second: num({ minimum: 0, description: 'Checks started per second by all check-workers over the last minute' }),
        lag_p99_seconds: nullable(
          num({ minimum: 0, description: '99th percentile of start minus planned time over the last minute (the worst worker); null when no check ran' }),
        ),
        late: bool({
          description:
            'True when the p99 lag exceeds 10 % of the checks’ interval on any check-worker, or when monitors are active and no check-worker reports at all',
        }),
      },
      { description: 'How the check-worker fleet keeps up (all workers, not only the caller’s monitors)' },
    ),
  },
  { description: 'GET /dashboard (docs/dashboard.md)' },
);

const preferences = objectOf<ReturnType<typeof toPreferencesResponse>>(
  {
    timezone: preferenceField('timezone'),
    email_notifications: bool(),
    default_check_interval: preferenceField('default_check_interval'),
    default_timeout: preferenceField('default_timeout'),
    default_locations: preferenceField('default_locations'),
    theme: enumOf(THEMES),
  },
  { description: 'A user’s preferences (docs/dashboard.md)' },
);

/** The resources the API answers with, by component name. */
export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  Monitor: monitor,
  LocationResult: locationResult,
  CheckResult: checkResult,
  CheckTimings: checkTimings,
  NoDataSpan: noDataSpan,
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
    duration: nullable(int({ minimum: 0, maximum: INT32_MAX })),
  }),
  Agent: agent,
  AgentWithSecret: objectOf<AgentResponse & { secret: string }>(
    { ...(agent.properties as { [K in keyof AgentResponse]: JsonSchema }), secret: agentSecret },
    { description: 'The new agent with its HMAC secret, shown here once (later only by /credentials)' },
  ),
  AgentCredentials: objectOf<{ agent_id: number; secret: string }>({ agent_id: id(), secret: agentSecret }),
  AgentValidation: objectOf<AgentValidation>({
    reachable: bool(),
    latency_ms: ms('Round trip of the health call'),
    version: nullable(str({ maxLength: AGENT_VERSION_MAX })),
    error: nullable(text()),
    checked_at: timestamp(),
  }),
  AgentStats: objectOf<AgentStats>({
    period: enumOf(['24h']),
    from: timestamp(),
    to: timestamp(),
    totals: objectOf<AgentStats['totals']>({
      agents: count(),
      active: count(),
      inactive: count(),
      maintenance: count(),
      unreachable: count(),
      checks: count(),
      errors: count(),
      failures: count(),
    }),
    agents: arrayOf(agentStatsRow, { maxItems: INT32_MAX, description: 'One per agent the caller may see' }),
  }),
  User: user,
  Token: token,
  CreatedToken: objectOf<Omit<TokenResponse, 'last_used_at'> & { token: string }>(
    {
      id: id(),
      name: tokenName,
      token: str({ pattern: '^upt_[A-Za-z0-9_-]{40,}$', maxLength: 128, description: 'The token itself, shown only in this answer' }),
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
        properties: { ok: bool(), latency_ms: num({ minimum: 0 }), error: text() },
      },
    },
  }),
};
