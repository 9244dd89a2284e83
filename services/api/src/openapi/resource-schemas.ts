import { MONITOR_STATUSES } from '@uptime/db';
import { CHECK_FIELD_SPECS, DNS_VALUE_MAX_LENGTH, DNS_VALUES_MAX_ITEMS, HTTP_METHODS, MONITOR_TYPES, isFieldOfType, type CheckField } from '@uptime/probe';
import { ERROR_CODES } from '@uptime/errors';
import type { toCheckResultResponse, toNoDataSpanResponse, toRecentChecksResponse } from '../check-results/check-result.presenter';
import { BEAD_DNS_ANSWERS } from '@uptime/queues';
import { RECENT_CHECKS } from '../check-results/recent-checks.params';
import type { LocationResultItem } from '../check-results/location-results.repository';
import { MAX_SERIES_BUCKETS, STATS_GRANULARITY_NAMES, STATS_PERIODS } from '../monitor-stats/stats.params';
import type { toStatsResponse } from '../monitor-stats/stats.presenter';
import { AlertSettingsDto } from '../monitors/alert-settings.dto';
import type { toAlertSettingsResponse } from '../monitors/alert-settings.service';
import { BulkRequestDto } from '../monitors/bulk.dto';
import type { BulkOutcome } from '../monitors/bulk.service';
import { UNPLACED_CHECK_FIELDS, type UnplacedCheckWire } from '../monitors/monitor-fields';
import type { MonitorResponse } from '../monitors/monitor.presenter';
import type { toTestResultResponse } from '../monitors/test-result.presenter';
import { ACCOUNT_SCHEMAS } from './account-schemas';
import { AGENT_SCHEMAS } from './agent-schemas';
import { optionalKeys } from './delivery-schemas';
import { schemaOfDto } from './dto-schema';
import { escalationSettingsSchema } from './escalation-schemas';
import { arrayOf, bool, enumOf, int, nullable, num, objectOf, ref, str, timestamp, type JsonSchema } from './json-schema';
import type { toHeartbeatPingDetail, toHeartbeatPingResponse } from '../heartbeats/heartbeat-ping.presenter';
import { PING_BODY_KEPT_BYTES, PING_BODY_MAX_BYTES } from '../heartbeats/ping-body';
import { NOTIFICATION_SCHEMAS } from './notification-schemas';
import { KEY_DESCRIPTION, MANAGED_BY_DESCRIPTION } from './resource-key-schemas';
import { bigId, count, id, location, monitorField, ms, percent, statusCode, text, uptimeWindows } from './schema-parts';

/**
 * The resources the API answers with (docs/api.md), generated with the presenters' types: the
 * monitor's here, the others in notification-, agent- and account-schemas.ts.
 */

type Stats = ReturnType<typeof toStatsResponse>;

/** A field of the check as the answer shows it: the DTO's schema, the declaration's description (packages/probe/src/http/fields.ts). */
const checkField = (field: CheckField, extra: JsonSchema = {}): JsonSchema =>
  ofSomeTypes(field, monitorField(CHECK_FIELD_SPECS[field].wire, { ...extra, description: CHECK_FIELD_SPECS[field].description }));

/** A field not every type has is null on a monitor of another type (docs/monitors.md). */
function ofSomeTypes(field: CheckField, schema: JsonSchema): JsonSchema {
  if (MONITOR_TYPES.every((type) => isFieldOfType(type, field))) return schema;
  const types = MONITOR_TYPES.filter((type) => isFieldOfType(type, field));
  const widened = nullable(schema);
  return { ...widened, description: `${schema.description ?? ''} (${types.join(', ')} monitors; null for other types)`.trim() };
}

/** A heartbeat's own field: the DTO's schema, null on a monitor of another type (docs/heartbeats.md). */
const heartbeatField = (name: 'heartbeat_period' | 'heartbeat_cron' | 'heartbeat_timezone' | 'heartbeat_grace', description: string): JsonSchema =>
  nullable(monitorField(name, { description: `${description} (heartbeat monitors; null for other types)` }));

/** The check fields declared after those placed above, each as `checkField` shows it (none until one is declared). */
function unplacedCheckFields(): Record<UnplacedCheckWire, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const field of UNPLACED_CHECK_FIELDS) schemas[CHECK_FIELD_SPECS[field].wire] = checkField(field);
  return schemas as Record<UnplacedCheckWire, JsonSchema>;
}

const monitor = objectOf<MonitorResponse>(
  {
    id: id(),
    name: monitorField('name'),
    url: checkField('url', { format: 'uri' }),
    type: enumOf(MONITOR_TYPES, { description: 'How the monitor is checked: http (an HTTP request), tcp (a TCP connection, and a TLS handshake for tls://), dns (a query for dns://NAME), ping (ICMP echo requests); docs/monitors.md. heartbeat: nothing is checked, the monitor is up while pings arrive on time (docs/heartbeats.md)' }),
    method: ofSomeTypes('method', enumOf(HTTP_METHODS, { description: CHECK_FIELD_SPECS.method.description })),
    headers: checkField('headers'),
    body: checkField('body'),
    expected_status: checkField('expectedStatus'),
    timeout: checkField('timeout'),
    check_interval: monitorField('check_interval', { description: 'Seconds between checks' }),
    retry_count: checkField('retryCount'),
    follow_redirects: ofSomeTypes('followRedirects', bool({ description: CHECK_FIELD_SPECS.followRedirects.description })),
    verify_ssl: ofSomeTypes('verifySsl', bool({ description: CHECK_FIELD_SPECS.verifySsl.description })),
    expected_content: checkField('expectedContent'),
    excluded_content: checkField('excludedContent'),
    json_path: checkField('jsonPath'),
    expected_json_value: checkField('expectedJsonValue'),
    ...unplacedCheckFields(),
    locations: monitorField('locations'),
    tags: monitorField('tags'),
    key: monitorField('key', { description: KEY_DESCRIPTION }),
    managed_by: monitorField('managed_by', { description: MANAGED_BY_DESCRIPTION }),
    status: enumOf(MONITOR_STATUSES, {
      description:
        'pending: not checked since created or resumed; online: the last check succeeded; warning: failing, fewer times in a row than alert_threshold, or slow (see status_reason); offline: failed alert_threshold times in a row, a downtime is open until recovery_threshold successes in a row; paused: not checked (docs/monitors.md)',
    }),
    status_reason: nullable(enumOf(['failing', 'slow', 'late'], { description: 'Why the monitor reads warning: failing (failures below alert_threshold) or slow (a success slower than response_time_threshold); late: a heartbeat still online past its due time, within its grace (docs/heartbeats.md); null otherwise (docs/alert-rules.md)' })),
    response_time_threshold: monitorField('response_time_threshold', { description: 'A success slower than this many milliseconds reads warning (slow); null: off' }),
    recovery_threshold: monitorField('recovery_threshold', { description: 'Successes in a row needed to go from offline to online' }),
    certificate_expires_at: nullable(timestamp({ description: "notAfter of the https:// or tls:// target's leaf certificate as the last checks received it; null for http://, tcp:// or when none was received (docs/alert-rules.md)" })),
    depends_on: monitorField('depends_on', { description: 'Ids of monitors this one depends on; while one is offline, its downtime notification is suppressed' }),
    heartbeat_period: heartbeatField('heartbeat_period', 'Seconds between expected pings (30 to 31,536,000); exactly one of this and heartbeat_cron'),
    heartbeat_cron: heartbeatField('heartbeat_cron', 'A 5-field cron expression of the times pings are expected; exactly one of this and heartbeat_period'),
    heartbeat_timezone: heartbeatField('heartbeat_timezone', 'The IANA zone heartbeat_cron is read in (default UTC); null with a period'),
    heartbeat_grace: heartbeatField('heartbeat_grace', 'Seconds after the due time before the monitor goes offline (30 to 2,592,000; default 300)'),
    heartbeat_url: nullable(str({ format: 'uri', maxLength: 2048, description: 'Where the job pings: ${PUBLIC_URL}/ping/{token}, and /start, /fail, /{exit status} under it; POST /monitors/{id}/heartbeat/rotate replaces it (docs/heartbeats.md)' })),
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
    ping: nullable(ref('PingFigures')),
    locations: arrayOf(ref('LocationResult'), {
      maxItems: monitorField('locations').maxItems,
      description: "Each location's result when the check also ran through agents",
    }),
    dns: nullable(ref('DnsAnswer')),
  },
  { description: 'One recorded check' },
);

type RecentChecks = ReturnType<typeof toRecentChecksResponse>[number];

const recentChecks = objectOf<RecentChecks>(
  {
    monitor_id: id(),
    checks: arrayOf(
      objectOf<RecentChecks['checks'][number]>({
        checked_at: timestamp(),
        status: enumOf(['up', 'down']),
        status_code: statusCode(),
        response_time: ms('Response time'),
        error: nullable(text()),
        maintenance: bool({ description: 'Made during a maintenance window' }),
        packet_loss: nullable(num({ minimum: 0, maximum: 100, description: "A ping check's packet loss, percent; null for other types' checks" })),
        dns_answers: nullable(
          arrayOf(str({ maxLength: DNS_VALUE_MAX_LENGTH }), {
            maxItems: BEAD_DNS_ANSWERS,
            description: `A dns check's first ${BEAD_DNS_ANSWERS} answer values, normalised; null for other types' checks (the whole answer: GET /monitors/{id}/results)`,
          }),
        ),
      }),
      { maxItems: RECENT_CHECKS.maxLimit, description: 'Newest first, at most `limit`; empty before the first check (and for a heartbeat monitor, whose results are its pings)' },
    ),
  },
  { description: "A monitor's latest checks (the beads of the web app's list and dashboard)" },
);

const dnsAnswer = objectOf<NonNullable<ReturnType<typeof toCheckResultResponse>['dns']>>(
  {
    response_code: nullable(str({ maxLength: 16, description: 'The response code (NOERROR, NXDOMAIN, SERVFAIL, REFUSED...); null when no answer came (a timeout)', examples: ['NOERROR'] })),
    answers: arrayOf(str({ maxLength: DNS_VALUE_MAX_LENGTH }), {
      maxItems: DNS_VALUES_MAX_ITEMS,
      description: 'The values of the records of the type asked for, normalised as expected_dns_values are compared (docs/monitors.md, "DNS records")',
    }),
    min_ttl: nullable(int({ minimum: 0, maximum: 2147483647, description: "The lowest TTL of the answer's records, seconds; null without records" })),
  },
  { description: "A dns check's answer; null on the checks of other types" },
);

const rtt = (what: string): JsonSchema => nullable(num({ minimum: 0, description: `${what} round trip in milliseconds; null when no answer came back` }));

const pingFigures = objectOf<NonNullable<ReturnType<typeof toCheckResultResponse>['ping']>>(
  {
    packet_loss: num({ minimum: 0, maximum: 100, description: 'Percent of the echo requests left unanswered' }),
    rtt_min: rtt('Fastest'),
    rtt_avg: rtt('Average'),
    rtt_max: rtt('Slowest'),
  },
  { description: "A ping check's figures (docs/monitors.md, \"ICMP ping\"): its response_time is the average round trip, rounded; null for other types" },
);

const pingFields = {
  id: bigId(),
  received_at: timestamp(),
  kind: enumOf(['success', 'start', 'fail', 'exit'], { description: 'What the ping said: /ping/{token}, /start, /fail or an exit status (docs/heartbeats.md)' }),
  exit_status: nullable(int({ minimum: 0, maximum: 255, description: 'The exit status of an exit ping: 0 is a success' })),
  duration: nullable(num({ minimum: 0, description: 'Seconds since the start this ping ends; null when no start came before it' })),
  source_ip: nullable(str({ maxLength: 64 })),
  user_agent: nullable(str({ maxLength: 512 })),
  body_size: int({ minimum: 0, maximum: PING_BODY_MAX_BYTES, description: 'Bytes of the body the ping carried' }),
  body_truncated: bool({ description: `The body was longer than the ${PING_BODY_KEPT_BYTES} bytes kept` }),
};
const heartbeatPing = objectOf<ReturnType<typeof toHeartbeatPingResponse>>(pingFields, { description: "One ping of a heartbeat monitor: a heartbeat's results" });
const heartbeatPingDetail = objectOf<ReturnType<typeof toHeartbeatPingDetail>>(
  { ...pingFields, body: nullable(str({ maxLength: PING_BODY_KEPT_BYTES * 3, description: `The first ${PING_BODY_KEPT_BYTES} bytes of the body as UTF-8 text; null when none came` })) },
  { description: 'One ping of a heartbeat monitor with the body kept from it' },
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
    dns: nullable(ref('DnsAnswer')),
    ping: nullable(ref('PingFigures')),
  },
  { description: 'The result of a dry-run check (nothing recorded)' },
);

// period_uptime is a heartbeat's only: other monitors' answers keep their shape (docs/statistics.md).
const stats = optionalKeys(objectOf<Stats>(
  {
    period: enumOf(Object.keys(STATS_PERIODS)),
    granularity: enumOf(STATS_GRANULARITY_NAMES),
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
    checks: objectOf<Stats['checks']>(
      { total: count(), successful: count(), failed: count() },
      {
        description:
          'Results counted within the period. For a heartbeat: its results, the successful pings (`successful`: success or exit status 0) and the failures (`failed`: fail pings, non-zero exit statuses and missed deadlines, an unfinished run included); a start ping is none, nor a ping while paused. They are counts of events, not a measure of time: its uptime is `period_uptime`.',
      },
    ),
    period_uptime: nullable(
      num({
        minimum: 0,
        maximum: 100,
        description:
          'A heartbeat only (absent for other monitors): the share of the period, from its creation, it was not offline (outside its incidents), × 100; null if it did not exist yet',
      }),
    ),
    series: arrayOf(
      objectOf<Stats['series'][number]>({
        timestamp: timestamp({ description: 'Start of the bucket; at granularity `check`, the time of the check' }),
        uptime: percent(
          'Uptime in the bucket (at granularity `check`: 100 up, 0 down, null in maintenance). For a heartbeat, time: the share of the bucket (from its creation, up to now) it was not offline, null before it existed; at granularity `check`, 100 when it was not offline at the time of the ping or missed deadline, 0 when it was',
        ),
        avg_response_time: ms('Mean response time in the bucket (at granularity `check`: the check\'s own)'),
        checks: count('Results counted in the bucket (for a heartbeat, pings and missed deadlines, as in `checks`)'),
        maintenance: bool({
          description: 'At granularity `check`: the check was made in a maintenance window, so it counts nowhere (checks 0, uptime null). Always false for a bucket: the rollups leave such checks out.',
        }),
      }),
      {
        maxItems: MAX_SERIES_BUCKETS,
        description: `One bucket per granularity step over the period; at granularity \`check\`, one point per check, oldest first (the newest ${MAX_SERIES_BUCKETS} when there are more)`,
      },
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
), ['period_uptime']);

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
      channel_ids: {
        ...schemaOfDto(AlertSettingsDto).properties!.channel_ids,
        description: "The organization's channels this monitor's alerts go to, ascending; a new monitor starts with the default ones (docs/channels.md)",
      },
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

/** The resources the API answers with, by component name. */
export const RESOURCE_SCHEMAS: Record<string, JsonSchema> = {
  Monitor: monitor,
  LocationResult: locationResult,
  CheckResult: checkResult,
  RecentChecks: recentChecks,
  HeartbeatPing: heartbeatPing,
  HeartbeatPingDetail: heartbeatPingDetail,
  CheckTimings: checkTimings,
  DnsAnswer: dnsAnswer,
  PingFigures: pingFigures,
  NoDataSpan: noDataSpan,
  TestResult: testResult,
  MonitorStats: stats,
  AlertSettings: alertSettings,
  BulkOutcome: bulkOutcome,
  ...NOTIFICATION_SCHEMAS,
  ...AGENT_SCHEMAS,
  ...ACCOUNT_SCHEMAS,
};
