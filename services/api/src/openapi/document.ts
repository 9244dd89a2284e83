import { SESSION_COOKIE } from '../auth/session';
import { COMMON_HEADERS, COMMON_SCHEMAS } from './common-schemas';
import type { JsonSchema } from './json-schema';
import { buildOperation, type OperationSpec, type Tag } from './operation';
import { ACCOUNT_OPERATIONS } from './paths/account';
import { AUDIT_LOG_OPERATIONS } from './paths/audit-log';
import { auditSchemas } from './audit-schemas';
import { ALERT_CHANNEL_OPERATIONS } from './paths/alert-channels';
import { AGENT_OPERATIONS } from './paths/agents';
import { AUTH_OPERATIONS } from './paths/auth';
import { MONITOR_OPERATIONS } from './paths/monitors';
import { HEARTBEAT_PING_OPERATIONS } from './paths/heartbeat-pings';
import { NOTIFICATION_OPERATIONS } from './paths/notifications';
import { OUTSIDE_OPERATIONS } from './paths/operations';
import { SIGN_IN_OPTION_OPERATIONS } from './paths/sign-in-options';
import { STATUS_PAGE_OPERATIONS } from './paths/status-pages';
import { STATUS_PAGE_INCIDENT_OPERATIONS } from './paths/status-page-incidents';
import { statusPageIncidentSchemas } from './status-page-incident-schemas';
import { STATUS_PAGE_SUBSCRIBER_OPERATIONS } from './paths/status-page-subscribers';
import { statusPageSubscriberSchemas } from './status-page-subscriber-schemas';
import { MAINTENANCE_WINDOW_OPERATIONS } from './paths/maintenance-windows';
import { LIVE_OPERATIONS } from './paths/live';
import { CHANNEL_OPERATIONS } from './paths/channels';
import { channelSchemas } from './channel-schemas';
import { ORGANIZATION_OPERATIONS } from './paths/organizations';
import { organizationSchemas } from './organization-schemas';
import { maintenanceWindowSchemas } from './maintenance-window-schemas';
import { statusPageSchemas } from './status-page-schemas';
import { requestSchemas } from './request-schemas';
import { RESOURCE_SCHEMAS } from './resource-schemas';

/** An OpenAPI 3.1 document as served (plain JSON data). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
  [key: string]: unknown;
}

/** Every operation the API serves, in the order the explorer lists them. */
export const OPERATIONS: readonly OperationSpec[] = [
  ...MONITOR_OPERATIONS,
  ...HEARTBEAT_PING_OPERATIONS,
  ...ALERT_CHANNEL_OPERATIONS,
  ...NOTIFICATION_OPERATIONS,
  ...AGENT_OPERATIONS,
  ...AUTH_OPERATIONS,
  ...SIGN_IN_OPTION_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...STATUS_PAGE_OPERATIONS,
  ...STATUS_PAGE_INCIDENT_OPERATIONS,
  ...STATUS_PAGE_SUBSCRIBER_OPERATIONS,
  ...MAINTENANCE_WINDOW_OPERATIONS,
  ...LIVE_OPERATIONS,
  ...CHANNEL_OPERATIONS,
  ...AUDIT_LOG_OPERATIONS,
  ...ORGANIZATION_OPERATIONS,
  ...OUTSIDE_OPERATIONS,
];

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Monitors', description: 'HTTP(S) checks, their results, statistics, alert settings and agents' },
  { name: 'Notifications', description: 'Downtime and recovery notifications' },
  { name: 'Agents', description: 'Probes at other places (docs/agent-protocol.md)' },
  { name: 'Auth', description: 'OAuth sign-in, the session and API tokens' },
  { name: 'Dashboard', description: 'Overview' },
  { name: 'Preferences', description: 'Per-user settings' },
  { name: 'Status pages', description: 'Public status pages and badges, and their public reads (docs/status-pages.md)' },
  { name: 'Maintenance windows', description: 'Planned maintenance: checks go on, alerts and statistics leave them out (docs/alert-rules.md)' },
  { name: 'Live updates', description: 'Check results, status changes and notifications as they happen, as Server-Sent Events (docs/web.md)' },
  { name: 'Channels', description: 'Notification channels set up once and attached to monitors (docs/channels.md)' },
  { name: 'Organizations', description: 'Organizations, their members, invitations and audit log: who shares the monitors, with which role, and who changed what (docs/organizations.md, docs/audit-log.md)' },
  { name: 'Operations', description: 'Health, readiness, metrics and this document: no caller needed' },
];

const DESCRIPTION = `Uptime monitoring: HTTP(S) monitors checked on schedule, downtime and recovery notifications by email.

**Authentication.** Send an API token as \`Authorization: Bearer upt_…\` (create one with POST /api/v1/auth/tokens or \`pnpm cli token:create\`), or the session cookie \`${SESSION_COOKIE}\` set by signing in with GitHub or Google or with a one-time link (\`pnpm cli login-link\`).

**Envelopes.** A resource: \`{data, meta}\`; a list: \`{data, pagination, meta}\`; an action: \`{message, data?, meta}\`; an error: \`{error: {code, message, details?}, meta}\`. \`meta.request_id\` equals the \`X-Request-Id\` header. Ids are integers, times ISO 8601 UTC with milliseconds, durations seconds, response times milliseconds.

**Rate limits.** RATE_LIMIT_PER_HOUR requests an hour per user (per IP without a caller); every /api/v1 answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset, and a 429 carries Retry-After. Self-hosted installs may turn it off (0): then the headers are absent. Public status pages and badges (/status, /badge, /api/v1/public) are counted apart: PUBLIC_RATE_LIMIT_PER_MINUTE per IP.

**HTTPS.** With REQUIRE_HTTPS (the default in production) a plain-HTTP request is answered 308 to the same URL over https; /healthz and /readyz are exempt.

**Unknown routes** under /api answer 404 NOT_FOUND in the error envelope (401 under /api/v1 without a caller). Other paths belong to the web app served on the same origin (docs/operations.md).`;

function mergeComponents(...groups: Record<string, JsonSchema>[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const group of groups) {
    for (const [name, schema] of Object.entries(group)) {
      if (out[name]) throw new Error(`Two schemas named ${name}`);
      out[name] = schema;
    }
  }
  return out;
}

function pathsOf(operations: readonly OperationSpec[], sharedResponses: Record<string, unknown>): OpenApiDocument['paths'] {
  const paths: OpenApiDocument['paths'] = {};
  const ids = new Set<string>();
  for (const spec of operations) {
    if (ids.has(spec.operationId)) throw new Error(`Two operations with the id ${spec.operationId}`);
    ids.add(spec.operationId);
    const item = (paths[spec.path] ??= {});
    if (item[spec.method]) throw new Error(`${spec.method.toUpperCase()} ${spec.path} is described twice`);
    item[spec.method] = buildOperation(spec, sharedResponses);
  }
  return paths;
}

/** Builds the document from the operation specs, the DTOs and the presenters' schemas. */
export function buildOpenApiDocument(): OpenApiDocument {
  const sharedResponses: Record<string, unknown> = {};
  const paths = pathsOf(OPERATIONS, sharedResponses);
  return {
    openapi: '3.1.0',
    info: { title: 'Uptime API', version: '0.1.0', description: DESCRIPTION },
    servers: [
      {
        url: '/',
        description:
          'This server, whichever environment it is (production, staging, a test run or a local install): paths are absolute and the host is the one the document was fetched from',
        // The API is meant for any user of the install and their tools, not only its own web app.
        'x-internal': false,
      },
    ],
    tags: TAGS,
    security: [{ bearerAuth: [] }, { sessionCookie: [] }],
    paths,
    components: {
      schemas: mergeComponents(COMMON_SCHEMAS, RESOURCE_SCHEMAS, requestSchemas(), statusPageSchemas(), statusPageIncidentSchemas(), statusPageSubscriberSchemas(), maintenanceWindowSchemas(RESOURCE_SCHEMAS.Monitor!), channelSchemas(), auditSchemas(), organizationSchemas()),
      responses: sharedResponses,
      headers: COMMON_HEADERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'upt_ followed by 43 characters', description: 'An API token' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session of a browser signed in with GitHub or Google' },
      },
    },
  };
}

let served: string | undefined;

/** The document as served, built once per process. */
export function openApiJson(): string {
  served ??= JSON.stringify(buildOpenApiDocument());
  return served;
}
