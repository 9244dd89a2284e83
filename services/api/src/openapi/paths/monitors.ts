import { MONITOR_STATUSES } from '@uptime/db';
import { MONITOR_TYPES } from '@uptime/probe';
import { TAG_FILTER_MAX_LENGTH } from '../../monitors/list-monitors.params';
import { STATS_GRANULARITY_NAMES, STATS_PERIODS } from '../../monitor-stats/stats.params';
import { RECENT_CHECKS } from '../../check-results/recent-checks.params';
import { ISO_DATE_MAX_LENGTH } from '../../notifications/notifications.params';
import { dataEnvelope, listEnvelope, messageEnvelope } from '../common-schemas';
import {
  dataExample,
  EXAMPLE_ALERT_SETTINGS,
  EXAMPLE_CHECK_RESULT,
  EXAMPLE_HEARTBEAT_MONITOR,
  EXAMPLE_HEARTBEAT_PING,
  EXAMPLE_MONITOR,
  EXAMPLE_NO_DATA_SPAN,
  EXAMPLE_STATS,
  EXAMPLE_TEST_RESULT,
  listExample,
  messageExample,
} from '../examples';
import { arrayOf, enumOf, INT32_MAX, int, objectOf, QUERY_VALUE_MAX, ref, str } from '../json-schema';
import { EXAMPLE_UPCOMING_WINDOW } from '../maintenance-window-schemas';
import { bigId } from '../schema-parts';
import { idParam, pageParams, type OperationSpec, type ParameterSpec } from '../operation';

const BASE = '/api/v1/monitors';
const MONITOR = `${BASE}/{id}`;
const id = idParam('monitor');
const notFound = ['MONITOR_NOT_FOUND'] as const;

/** The list envelope of checks, with the unchecked spans of the range beside them. */
const historyEnvelope = objectOf<{ data: unknown; pagination: unknown; no_data: unknown; meta: unknown }>({
  data: arrayOf(ref('CheckResult'), { maxItems: 1000 }),
  pagination: ref('Pagination'),
  no_data: arrayOf(ref('NoDataSpan'), { maxItems: 100 }),
  meta: ref('Meta'),
});

const isoDate = (name: string, description: string): ParameterSpec => ({
  name,
  in: 'query',
  description: `${description}; ISO 8601 date or date-time (a time without zone is UTC)`,
  schema: str({ maxLength: ISO_DATE_MAX_LENGTH, examples: ['2026-11-01', '2026-11-01T00:00:00Z'] }),
});

const listFilters: ParameterSpec[] = [
  ...pageParams(25, 100),
  {
    name: 'status',
    in: 'query',
    description: 'Only monitors with this status (`true` is accepted and ignored, for older clients)',
    schema: enumOf([...MONITOR_STATUSES, 'true']),
  },
  { name: 'search', in: 'query', description: 'Case-insensitive, in name and URL', schema: str({ maxLength: 200 }) },
  { name: 'type', in: 'query', description: 'Monitors of this type; `https` keeps http monitors whose URL is https', schema: enumOf([...MONITOR_TYPES, 'https']) },
  { name: 'tags', in: 'query', description: 'Comma-separated (`production,eu`): monitors having all of them', schema: str({ maxLength: TAG_FILTER_MAX_LENGTH }) },
  isoDate('created_after', 'Created at or after'),
  isoDate('updated_since', 'Updated at or after'),
  { name: 'uptime', in: 'query', description: 'Accepted and ignored, for older clients', schema: str({ maxLength: QUERY_VALUE_MAX }) },
];

/** Unpaged: at most one entry per agent. */
const agentList = arrayOf(ref('Agent'), { maxItems: INT32_MAX });

const monitorAnswer = (description: string) => ({ description, schema: dataEnvelope(ref('Monitor')), example: dataExample(EXAMPLE_MONITOR) });

const update = (method: 'put' | 'patch'): OperationSpec => ({
  method,
  path: MONITOR,
  operationId: method === 'put' ? 'replaceMonitor' : 'updateMonitor',
  tag: 'Monitors',
  summary: method === 'put' ? 'Update a monitor (PUT takes a partial body too)' : 'Update a monitor',
  description: 'Validated like create; a new check_interval reschedules the checks. Answers the whole monitor.',
  parameters: [id],
  body: { schema: ref('MonitorUpdate'), required: false, example: { name: 'Shop (EU)', check_interval: 120, timeout: 10 } },
  responses: { 200: monitorAnswer('The updated monitor') },
  errors: [...notFound, 'INVALID_MONITOR_TYPE', 'RESOURCE_EXISTS'],
});

const pause = (verb: 'pause' | 'disable'): OperationSpec => ({
  method: 'post',
  path: `${MONITOR}/${verb}`,
  operationId: `${verb}Monitor`,
  tag: 'Monitors',
  summary: verb === 'pause' ? 'Pause a monitor' : 'Disable a monitor (same as pause)',
  description: 'No checks while paused; status becomes `paused` with `paused_at` and `pause_reason`.',
  parameters: [id],
  body: { schema: ref('PauseRequest'), required: false, example: { reason: 'Maintenance window' } },
  responses: { 200: { description: 'The paused monitor', schema: messageEnvelope(ref('Monitor')), example: messageExample('Monitor paused', { ...EXAMPLE_MONITOR, status: 'paused', paused_at: '2026-11-22T10:00:00.000Z', pause_reason: 'Maintenance window' }) } },
  errors: [...notFound],
});

const resume = (verb: 'resume' | 'enable'): OperationSpec => ({
  method: 'post',
  path: `${MONITOR}/${verb}`,
  operationId: `${verb}Monitor`,
  tag: 'Monitors',
  summary: verb === 'resume' ? 'Resume a monitor' : 'Enable a monitor (same as resume)',
  description: 'Back to `pending` and checked at once. Takes no body (an empty object is fine).',
  parameters: [id],
  responses: { 200: { description: 'The resumed monitor', schema: messageEnvelope(ref('Monitor')), example: messageExample('Monitor resumed', { ...EXAMPLE_MONITOR, status: 'pending' }) } },
  errors: [...notFound],
});

/** `/monitors`: CRUD (monitors.routes.ts) and operations (monitor-operations.routes.ts, monitor-agents.routes.ts). */
export const MONITOR_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: BASE,
    operationId: 'listMonitors',
    tag: 'Monitors',
    summary: 'List monitors',
    description: "The caller's monitors, by id.",
    parameters: listFilters,
    responses: { 200: { description: 'A page of monitors', schema: listEnvelope(ref('Monitor')), example: listExample([EXAMPLE_MONITOR]) } },
  },
  {
    method: 'post',
    path: BASE,
    operationId: 'createMonitor',
    tag: 'Monitors',
    summary: 'Create a monitor',
    description: 'The new monitor is `pending` and checked at once, then every check_interval. A heartbeat monitor has no url: it is `pending` until its first ping, at its `heartbeat_url` (docs/heartbeats.md).',
    body: { schema: ref('MonitorCreate'), required: true, example: { name: 'Shop', url: 'https://shop.example.com/health', type: 'http', check_interval: 60 } },
    responses: { 201: { description: 'The new monitor', schema: dataEnvelope(ref('Monitor')), example: dataExample({ ...EXAMPLE_MONITOR, status: 'pending' }) } },
    errors: ['INVALID_MONITOR_TYPE', 'RESOURCE_EXISTS'],
  },
  {
    method: 'post',
    path: `${BASE}/bulk`,
    operationId: 'bulkMonitors',
    tag: 'Monitors',
    summary: 'Pause, resume, delete or update many monitors',
    description: 'Each monitor on its own: those that fail (missing, another user\'s) are listed under `failed`. Invalid `settings` change nothing.',
    body: { schema: ref('BulkRequest'), required: true, example: { action: 'pause', monitor_ids: [42, 43], reason: 'Deploy' } },
    responses: {
      200: {
        description: 'What succeeded and what failed',
        schema: messageEnvelope(ref('BulkOutcome')),
        example: messageExample('1 monitor(s) paused, 1 failed', { succeeded: [42], failed: [{ id: 43, error: { code: 'MONITOR_NOT_FOUND', message: 'Monitor 43 not found' } }] }),
      },
    },
    errors: ['INVALID_MONITOR_TYPE'],
  },
  {
    method: 'post',
    path: `${BASE}/bulk/create`,
    operationId: 'bulkCreateMonitors',
    tag: 'Monitors',
    summary: 'Create up to 100 monitors at once',
    description:
      'Each body is validated like POST /monitors (a problem is named by its place: `monitors.3.url`, and every problem of every item is answered at once). All are created in one transaction, or none: a key taken, a dependency that is not yours, any invalid item changes nothing. Each new monitor is scheduled and checked at once, as a single create. Answers the monitors in the order given (docs/monitors.md, "Bulk create and update").',
    body: {
      schema: ref('BulkCreateRequest'),
      required: true,
      example: { monitors: [{ name: 'Shop', url: 'https://shop.example.com/health', type: 'http', check_interval: 60 }, { name: 'Database', url: 'tcp://db.example.com:5432', type: 'tcp' }] },
    },
    responses: { 201: { description: 'The new monitors, in the order given', schema: dataEnvelope(arrayOf(ref('Monitor'), { maxItems: 100 })), example: dataExample([{ ...EXAMPLE_MONITOR, status: 'pending' }]) } },
    errors: ['INVALID_MONITOR_TYPE', 'RESOURCE_EXISTS'],
  },
  {
    method: 'post',
    path: `${BASE}/bulk/update`,
    operationId: 'bulkUpdateMonitors',
    tag: 'Monitors',
    summary: 'Update up to 100 monitors at once, each with its own body',
    description:
      'Each `settings` is validated like PATCH /monitors/{id} (`updates.3.settings.check_interval` names a problem). All are applied in one transaction, or none: a monitor that is missing or another organization\'s is 404 and changes nothing. New schedules are written before the commit, as a single update. Answers the monitors in the order given (docs/monitors.md, "Bulk create and update").',
    body: { schema: ref('BulkUpdateRequest'), required: true, example: { updates: [{ id: 42, settings: { check_interval: 120 } }, { id: 43, settings: { name: 'Shop (EU)', tags: ['eu'] } }] } },
    responses: { 200: { description: 'The updated monitors, in the order given', schema: dataEnvelope(arrayOf(ref('Monitor'), { maxItems: 100 })), example: dataExample([{ ...EXAMPLE_MONITOR, check_interval: 120 }]) } },
    errors: [...notFound, 'INVALID_MONITOR_TYPE', 'RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: MONITOR,
    operationId: 'getMonitor',
    tag: 'Monitors',
    summary: 'Get a monitor',
    parameters: [id],
    responses: { 200: { description: 'The monitor and its next maintenance windows', schema: dataEnvelope(ref('MonitorDetail')), example: dataExample({ ...EXAMPLE_MONITOR, maintenance: [EXAMPLE_UPCOMING_WINDOW] }) } },
    errors: [...notFound],
  },
  update('put'),
  update('patch'),
  {
    method: 'delete',
    path: MONITOR,
    operationId: 'deleteMonitor',
    tag: 'Monitors',
    summary: 'Delete a monitor',
    description: 'Removes its schedule, results and notifications.',
    parameters: [id],
    responses: { 200: { description: 'Deleted', schema: ref('MessageResponse'), example: messageExample('Monitor deleted') } },
    errors: [...notFound],
  },
  pause('pause'),
  pause('disable'),
  resume('resume'),
  resume('enable'),
  {
    method: 'post',
    path: `${MONITOR}/heartbeat/rotate`,
    operationId: 'rotateHeartbeatUrl',
    tag: 'Monitors',
    summary: "Replace a heartbeat monitor's ping URL",
    description: 'A new token in `heartbeat_url`; the old URL answers 404 from now on. Only a heartbeat monitor has one (409 INVALID_STATE otherwise). Takes no body (docs/heartbeats.md).',
    parameters: [id],
    responses: { 200: { description: 'The monitor with its new heartbeat_url', schema: messageEnvelope(ref('Monitor')), example: messageExample('Heartbeat URL rotated', EXAMPLE_HEARTBEAT_MONITOR) } },
    errors: [...notFound, 'INVALID_STATE'],
  },
  {
    method: 'post',
    path: `${MONITOR}/test`,
    operationId: 'testMonitor',
    tag: 'Monitors',
    summary: 'Run a check now (dry run)',
    description: 'Through the probe the workers use, with the same SSRF policy; records nothing and does not change the status. Takes no body. A heartbeat monitor has no probe: 409 INVALID_STATE.',
    parameters: [id],
    responses: { 200: { description: 'The result', schema: dataEnvelope(ref('TestResult')), example: dataExample(EXAMPLE_TEST_RESULT) } },
    errors: [...notFound, 'INVALID_STATE'],
  },
  {
    method: 'get',
    path: `${MONITOR}/stats`,
    operationId: 'getMonitorStats',
    tag: 'Monitors',
    summary: 'Statistics over a period',
    description:
      'Read from rollups; at granularity `check` (periods of 1h, 3h and 6h only) from the checks themselves, the series a point per check and the figures over the same checks (p95 exact). A series longer than 2,200 buckets is refused (use a coarser granularity). For a heartbeat, uptime is time: `uptime`, `period_uptime` and each bucket\'s `uptime` are the share of the time not offline, while `checks` and a bucket\'s `checks` count its pings and missed deadlines (docs/statistics.md).',
    parameters: [
      id,
      { name: 'period', in: 'query', schema: enumOf(Object.keys(STATS_PERIODS), { default: '24h' }) },
      {
        name: 'granularity',
        in: 'query',
        description: 'Default: check for 1h, 3h and 6h, 5m for 24h, 1h for 7d and 30d, 1d for 90d. `check` over a longer period is refused.',
        schema: enumOf(STATS_GRANULARITY_NAMES),
      },
    ],
    responses: { 200: { description: 'The statistics', schema: dataEnvelope(ref('MonitorStats')), example: dataExample(EXAMPLE_STATS) } },
    errors: [...notFound],
  },
  {
    method: 'get',
    path: `${BASE}/limits`,
    operationId: 'getMonitorLimits',
    tag: 'Monitors',
    summary: 'What this install accepts of a monitor',
    description: 'The lowest `check_interval` it accepts (MIN_CHECK_INTERVAL_SECONDS, docs/configuration.md): a form can say so before sending.',
    responses: {
      200: {
        description: 'The limits',
        schema: dataEnvelope(
          objectOf<{ min_check_interval: unknown }>({
            min_check_interval: int({ minimum: 1, maximum: 86400, description: 'Seconds: the lowest check_interval accepted' }),
          }),
        ),
        example: dataExample({ min_check_interval: 30 }),
      },
    },
  },
  {
    method: 'get',
    path: `${BASE}/recent-checks`,
    operationId: 'listRecentChecks',
    tag: 'Monitors',
    summary: 'The latest checks of several monitors',
    description: `For each monitor named in \`ids\` (at most ${RECENT_CHECKS.maxIds}), its latest \`limit\` checks, newest first, read in one query; monitors in id order. An id the organization has no monitor with is left out, as a missing one would be.`,
    parameters: [
      {
        name: 'ids',
        in: 'query',
        required: true,
        description: `Comma-separated monitor ids, 1 to ${RECENT_CHECKS.maxIds} of them`,
        schema: str({ maxLength: RECENT_CHECKS.maxIds * 11, pattern: '^\\s*\\d{1,10}\\s*(,\\s*\\d{1,10}\\s*)*$', examples: ['12,15'] }),
      },
      { name: 'limit', in: 'query', description: 'Checks per monitor', schema: int({ minimum: 1, maximum: RECENT_CHECKS.maxLimit, default: RECENT_CHECKS.defaultLimit }) },
    ],
    responses: {
      200: {
        description: 'Per monitor, its latest checks',
        schema: dataEnvelope(arrayOf(ref('RecentChecks'), { maxItems: RECENT_CHECKS.maxIds })),
        example: dataExample([
          {
            monitor_id: 12,
            checks: [
              { checked_at: '2026-11-22T10:00:00.000Z', status: 'up', status_code: 200, response_time: 120, error: null, maintenance: false, packet_loss: null, dns_answers: null },
              { checked_at: '2026-11-22T09:59:30.000Z', status: 'down', status_code: 500, response_time: 41, error: 'Unexpected status 500', maintenance: false, packet_loss: null, dns_answers: null },
            ],
          },
        ]),
      },
    },
  },
  {
    method: 'get',
    path: `${MONITOR}/history`,
    operationId: 'getMonitorHistory',
    tag: 'Monitors',
    summary: 'Checks within a time range',
    description:
      'Newest first, at most `limit`; pagination.total counts every check in the range. `no_data` lists the spans within the range when the monitor went unchecked for more than two intervals (newest first, at most 100; one still going on has `to` null).',
    parameters: [
      id,
      isoDate('from', 'Checked at or after'),
      isoDate('to', 'Checked at or before'),
      { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 1000, default: 100 }) },
    ],
    responses: {
      200: {
        description: 'The checks, and the unchecked time',
        schema: historyEnvelope,
        example: { ...(listExample([EXAMPLE_CHECK_RESULT]) as object), no_data: [EXAMPLE_NO_DATA_SPAN] },
      },
    },
    errors: [...notFound],
  },
  {
    method: 'get',
    path: `${MONITOR}/results`,
    operationId: 'listMonitorResults',
    tag: 'Monitors',
    summary: 'Checks, page by page',
    description: "Newest first. A heartbeat monitor's results are its pings (HeartbeatPing), each with its body at /results/{result_id} (docs/heartbeats.md).",
    parameters: [id, ...pageParams(50, 100)],
    responses: {
      200: { description: 'A page of checks, or of pings', schema: listEnvelope({ oneOf: [ref('CheckResult'), ref('HeartbeatPing')] }), example: listExample([EXAMPLE_CHECK_RESULT]) },
    },
    errors: [...notFound],
  },
  {
    method: 'get',
    path: `${MONITOR}/results/{result_id}`,
    operationId: 'getHeartbeatPing',
    tag: 'Monitors',
    summary: "A heartbeat's ping with its body",
    description: "The ping and the body kept from it (at most 10 KiB). Only a heartbeat monitor's results have one: any other id is 404 NOT_FOUND (docs/heartbeats.md).",
    parameters: [
      id,
      {
        name: 'result_id',
        in: 'path',
        description: "The id of a ping in the results, a bigint like HeartbeatPing's id; one that names no ping of this monitor (not a positive integer, or past 2^63-1) is 404 NOT_FOUND",
        schema: bigId(),
      },
    ],
    responses: { 200: { description: 'The ping', schema: dataEnvelope(ref('HeartbeatPingDetail')), example: dataExample(EXAMPLE_HEARTBEAT_PING) } },
    errors: [...notFound, 'NOT_FOUND'],
  },
  {
    method: 'get',
    path: `${MONITOR}/alerts`,
    operationId: 'getAlertSettings',
    tag: 'Monitors',
    summary: 'Alert settings of a monitor',
    parameters: [id],
    responses: { 200: { description: 'The settings', schema: dataEnvelope(ref('AlertSettings')), example: dataExample(EXAMPLE_ALERT_SETTINGS) } },
    errors: [...notFound],
  },
  {
    method: 'put',
    path: `${MONITOR}/alerts`,
    operationId: 'updateAlertSettings',
    tag: 'Monitors',
    summary: 'Change alert settings',
    description: 'A partial body; the next check and alert follow the new settings.',
    parameters: [id],
    body: { schema: ref('AlertSettingsUpdate'), required: false, example: { email_recipients: ['ops@example.com'], alert_threshold: 2 } },
    responses: { 200: { description: 'The settings now', schema: dataEnvelope(ref('AlertSettings')), example: dataExample(EXAMPLE_ALERT_SETTINGS) } },
    errors: [...notFound],
  },
  {
    method: 'get',
    path: `${MONITOR}/agents`,
    operationId: 'listMonitorAgents',
    tag: 'Monitors',
    summary: 'Agents assigned to a monitor',
    parameters: [id],
    responses: { 200: { description: 'The assigned agents', schema: dataEnvelope(agentList) } },
    errors: [...notFound],
  },
  {
    method: 'post',
    path: `${MONITOR}/agents`,
    operationId: 'assignMonitorAgents',
    tag: 'Monitors',
    summary: 'Assign agents to a monitor',
    description: 'Only your own agents and public active ones (else 403); the monitor is rescheduled with them.',
    parameters: [id],
    body: { schema: ref('AgentIds'), required: true, example: { agent_ids: [3] } },
    responses: { 200: { description: 'The agents now assigned', schema: messageEnvelope(agentList) } },
    errors: [...notFound, 'INSUFFICIENT_PERMISSIONS'],
  },
  {
    method: 'delete',
    path: `${MONITOR}/agents`,
    operationId: 'removeMonitorAgents',
    tag: 'Monitors',
    summary: 'Remove agents from a monitor',
    description: 'Ids not assigned are ignored.',
    parameters: [id],
    body: { schema: ref('AgentIds'), required: true, example: { agent_ids: [3] } },
    responses: { 200: { description: 'The agents still assigned', schema: messageEnvelope(agentList) } },
    errors: [...notFound],
  },
];
