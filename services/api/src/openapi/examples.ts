import type { AgentResponse } from '../agents/agent.presenter';
import type { TokenResponse } from '../auth/token.presenter';
import type { UserResponse } from '../auth/user.presenter';
import type { toDashboardResponse } from '../dashboard/dashboard.presenter';
import type { Meta } from '../http/envelope';
import type { toAlertSettingsResponse } from '../monitors/alert-settings.service';
import type { toCheckResultResponse } from '../check-results/check-result.presenter';
import type { toHeartbeatPingDetail } from '../heartbeats/heartbeat-ping.presenter';
import { CHECK_FIELD_SPECS, type FieldSpec } from '@uptime/probe';
import { UNPLACED_CHECK_FIELDS, type UnplacedCheckWire } from '../monitors/monitor-fields';
import type { MonitorResponse } from '../monitors/monitor.presenter';
import type { toNoDataSpanResponse } from '../check-results/check-result.presenter';
import type { toStatsResponse } from '../monitor-stats/stats.presenter';
import type { toTestResultResponse } from '../monitors/test-result.presenter';
import type { DeliveryResponse, NotificationResponse } from '../notifications/notification.presenter';
import type { toPreferencesResponse } from '../preferences/preferences.presenter';

/**
 * Examples shown in the document, typed as the presenters' answers (a renamed field is a compile
 * error) and validated against the document's own schemas by the OpenAPI tests.
 */
export const EXAMPLE_META: Meta = { timestamp: '2026-11-22T10:00:00.000Z', request_id: '6f1c2a4e-0b7d-4c1e-9a57-3f0e2d8c9b11' };

/** A check field declared after those in the example below shows its declared default. */
function unplacedCheckExamples(): Pick<MonitorResponse, UnplacedCheckWire> {
  const values: Record<string, unknown> = {};
  for (const field of UNPLACED_CHECK_FIELDS) {
    const spec: FieldSpec = CHECK_FIELD_SPECS[field];
    if (spec.default === undefined) throw new Error(`examples: ${spec.wire} has no default to show; give EXAMPLE_MONITOR its value`);
    values[spec.wire] = spec.default;
  }
  return values as Pick<MonitorResponse, UnplacedCheckWire>;
}

export const EXAMPLE_MONITOR: MonitorResponse = {
  id: 42,
  name: 'Shop',
  url: 'https://shop.example.com/health',
  type: 'http',
  method: 'GET',
  headers: { Accept: 'application/json' },
  body: null,
  expected_status: [],
  timeout: 30,
  check_interval: 60,
  retry_count: 1,
  follow_redirects: true,
  verify_ssl: true,
  expected_content: null,
  excluded_content: null,
  json_path: '$.status',
  expected_json_value: 'ok',
  ...unplacedCheckExamples(),
  locations: [],
  tags: ['production'],
  key: 'shop-health',
  managed_by: 'config',
  status: 'online',
  status_reason: null,
  response_time_threshold: 2000,
  recovery_threshold: 2,
  depends_on: [],
  heartbeat_period: null,
  heartbeat_cron: null,
  heartbeat_timezone: null,
  heartbeat_grace: null,
  heartbeat_url: null,
  certificate_expires_at: '2027-02-01T23:59:59.000Z',
  uptime_24h: 99.93,
  uptime_7d: 99.98,
  uptime_30d: 99.99,
  response_time: 182,
  last_check: '2026-11-22T09:59:30.000Z',
  last_success: '2026-11-22T09:59:30.000Z',
  last_failure: '2026-11-21T17:02:00.000Z',
  paused_at: null,
  pause_reason: null,
  in_maintenance: false,
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-20T12:30:00.000Z',
};

/** A heartbeat monitor: no url and no check fields, its schedule and its ping URL (docs/heartbeats.md). */
export const EXAMPLE_HEARTBEAT_MONITOR: MonitorResponse = {
  ...EXAMPLE_MONITOR,
  id: 43,
  name: 'Nightly backup',
  url: null,
  type: 'heartbeat',
  method: null,
  headers: null,
  body: null,
  expected_status: null,
  timeout: null,
  retry_count: null,
  follow_redirects: null,
  verify_ssl: null,
  expected_content: null,
  excluded_content: null,
  json_path: null,
  expected_json_value: null,
  ...(Object.fromEntries(UNPLACED_CHECK_FIELDS.map((f) => [CHECK_FIELD_SPECS[f].wire, null])) as Pick<MonitorResponse, UnplacedCheckWire>),
  response_time_threshold: null,
  recovery_threshold: 1,
  certificate_expires_at: null,
  heartbeat_period: null,
  heartbeat_cron: '30 2 * * *',
  heartbeat_timezone: 'Europe/Berlin',
  heartbeat_grace: 900,
  heartbeat_url: 'https://uptime.example.com/ping/q3Zf0Yb6c1uJm8kV2xWnR4tLs9pHdA7eGiC5oBzK0Qw',
  response_time: null,
  last_failure: null,
};

export const EXAMPLE_HEARTBEAT_PING: ReturnType<typeof toHeartbeatPingDetail> = {
  id: 5012,
  received_at: '2026-11-22T01:30:42.000Z',
  kind: 'exit',
  exit_status: 0,
  duration: 41.2,
  source_ip: '203.0.113.7',
  user_agent: 'curl/8.5.0',
  body_size: 27,
  body_truncated: false,
  body: 'backup done: 1.2 GB in 41 s\n',
};

export const EXAMPLE_CHECK_RESULT: ReturnType<typeof toCheckResultResponse> = {
  id: 98231,
  checked_at: '2026-11-22T09:59:30.000Z',
  status: 'down',
  status_code: 500,
  response_time: 41,
  error: 'Unexpected status 500',
  maintenance: false,
  location: null,
  timings: { dns: 2, connect: 9, tls: 14, first_byte: 12, total: 41 },
  ping: null,
  locations: [],
  dns: null,
};

export const EXAMPLE_TEST_RESULT: ReturnType<typeof toTestResultResponse> = {
  status: 'up',
  response_time: 175,
  status_code: 200,
  checked_at: '2026-11-22T10:00:00.000Z',
  error: null,
  timings: { dns: 11, connect: 24, tls: 58, first_byte: 71, total: 175 },
  dns: null,
  ping: null,
};

export const EXAMPLE_NO_DATA_SPAN: ReturnType<typeof toNoDataSpanResponse> = {
  from: '2026-11-22T03:10:00.000Z',
  to: '2026-11-22T03:15:00.000Z',
  duration: 300,
};

export const EXAMPLE_STATS: ReturnType<typeof toStatsResponse> = {
  period: '24h',
  granularity: '1h',
  uptime: { '24h': 99.93, '7d': 99.98, '30d': 99.99 },
  response_times: { avg: 180, min: 120, max: 950, p95: 400 },
  incidents: { count: 1, total_downtime: 60 },
  checks: { total: 1440, successful: 1439, failed: 1 },
  series: [{ timestamp: '2026-11-22T09:00:00.000Z', uptime: 100, avg_response_time: 178, checks: 60, maintenance: false }],
  no_data: { total_seconds: 300, spans: [EXAMPLE_NO_DATA_SPAN] },
};

export const EXAMPLE_ALERT_SETTINGS: ReturnType<typeof toAlertSettingsResponse> = {
  email_enabled: true,
  email_recipients: ['ops@example.com'],
  slack_enabled: false,
  slack_webhook_url: null,
  webhook_enabled: true,
  webhook_url: 'https://ops.example.com/hooks/uptime',
  webhook_secret_set: true,
  channel_ids: [7],
  alert_on_recovery: true,
  alert_threshold: 2,
  reminder_interval_minutes: 30,
  escalation_recipients: ['oncall-lead@example.com'],
  escalation_channel_ids: [9],
  escalation_after_minutes: 60,
  alert_on_slow: false,
  certificate_expiry_days: 14,
};

export const EXAMPLE_NOTIFICATION: NotificationResponse = {
  id: 7,
  monitor_id: 42,
  monitor_name: 'Shop',
  monitor_url: 'https://shop.example.com/health',
  type: 'downtime',
  message: 'Shop is down: Unexpected status 500',
  status: 'active',
  started_at: '2026-11-22T09:58:00.000Z',
  resolved_at: null,
  duration: null,
  notification_method: 'email',
  acknowledged: false,
  acknowledged_at: null,
  email_sent_at: '2026-11-22T09:58:01.000Z',
  email_logged_only: false,
  error_details: { status_code: 500, response_time: 41, error_message: 'Unexpected status 500' },
  created_at: '2026-11-22T09:58:00.000Z',
  possible_duplicate: false,
  suppressed: false,
  suppressed_by: [],
};

export const EXAMPLE_DELIVERY: DeliveryResponse = {
  channel: 'email',
  kind: 'notice',
  reminder: null,
  phase: 'opened',
  recipient: 'ops@example.com',
  status: 'sent',
  attempts: 1,
  last_attempt_at: '2026-11-22T09:58:00.800Z',
  sent_at: '2026-11-22T09:58:01.000Z',
  error: null,
  possible_duplicate: false,
};

export const EXAMPLE_AGENT: AgentResponse = {
  id: 3,
  name: 'Frankfurt',
  location: 'eu-central',
  url: 'https://agent-fra.example.com',
  status: 'active',
  is_public: false,
  owner_id: 1,
  version: '1.2.0',
  last_seen_at: '2026-11-22T09:59:58.000Z',
  created_at: '2026-11-01T08:00:00.000Z',
  updated_at: '2026-11-01T08:00:00.000Z',
};

export const EXAMPLE_USER: UserResponse = {
  id: 1,
  email: 'ada@example.com',
  name: 'Ada',
  provider: 'github',
  providers: ['github', 'google'],
  avatar_url: 'https://avatars.example.com/ada.png',
  role: 'user',
  created_at: '2026-10-01T08:00:00.000Z',
  last_login: '2026-11-22T08:00:00.000Z',
  organization: { id: 1, name: 'Ada', role: 'owner' },
};

export const EXAMPLE_TOKEN: TokenResponse = {
  id: 5,
  name: 'ci',
  organization_id: 1,
  scope: 'write',
  created_at: '2026-11-01T08:00:00.000Z',
  expires_at: null,
  last_used_at: '2026-11-22T09:00:00.000Z',
};

export const EXAMPLE_PREFERENCES: ReturnType<typeof toPreferencesResponse> = {
  timezone: 'Europe/Berlin',
  email_notifications: true,
  default_check_interval: 300,
  default_timeout: 30,
  default_locations: [],
  theme: 'system',
};

export const EXAMPLE_DASHBOARD: ReturnType<typeof toDashboardResponse> = {
  monitors: { total: 3, online: 1, offline: 1, warning: 0, pending: 0, paused: 1 },
  uptime: { '24h': 99.5, '7d': 99.8, '30d': 99.9 },
  response_time_avg_24h: 210,
  active_incidents: 1,
  down_monitors: [{ id: 42, name: 'Shop', url: 'https://shop.example.com/health', since: '2026-11-22T09:58:00.000Z', in_maintenance: false }],
  recent_notifications: [EXAMPLE_NOTIFICATION],
  checks: { per_second: 33.4, lag_p99_seconds: 0.21, late: false },
};

export const dataExample = (data: unknown): unknown => ({ data, meta: EXAMPLE_META });
export const messageExample = (message: string, data?: unknown): unknown =>
  data === undefined ? { message, meta: EXAMPLE_META } : { message, data, meta: EXAMPLE_META };
export const listExample = (items: unknown[], meta: Record<string, unknown> = EXAMPLE_META): unknown => ({
  data: items,
  pagination: { page: 1, limit: 25, total: items.length, pages: items.length > 0 ? 1 : 0, has_next: false, has_prev: false },
  meta,
});
