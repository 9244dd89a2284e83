import { OAUTH_PROVIDERS, ORGANIZATION_ROLES, THEMES, TOKEN_SCOPES, USER_ROLES } from '@uptime/db';
import type { ReadinessReport } from '@uptime/observability';
import type { TokenResponse } from '../auth/token.presenter';
import type { UserResponse } from '../auth/user.presenter';
import type { toDashboardResponse } from '../dashboard/dashboard.presenter';
import type { toPreferencesResponse } from '../preferences/preferences.presenter';
import { arrayOf, bool, enumOf, INT32_MAX, nullable, num, objectOf, ref, str, TEXT_MAX, timestamp, type JsonSchema } from './json-schema';
import { count, id, monitorField, ms, preferenceField, text, tokenName, uptimeWindows } from './schema-parts';

type Dashboard = ReturnType<typeof toDashboardResponse>;

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
    organization: objectOf<UserResponse['organization']>(
      { id: id(), name: str({ minLength: 1, maxLength: 100 }), role: enumOf(ORGANIZATION_ROLES) },
      { description: "The organization this request acts in (the token's; else the session's X-Organization-Id; else the personal one) and the user's role there (docs/organizations.md)" },
    ),
  },
  { description: 'The signed-in user' },
);

const tokenScope = enumOf(TOKEN_SCOPES, {
  description: 'read: every unsafe method is refused (403); write: what the owner\'s role allows. A token may never do more than its owner\'s role (docs/organizations.md)',
});

const token = objectOf<TokenResponse>(
  {
    id: id(),
    name: tokenName,
    organization_id: id('The organization the token acts in'),
    scope: tokenScope,
    created_at: timestamp(),
    expires_at: nullable(timestamp()),
    last_used_at: nullable(timestamp()),
  },
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
        url: nullable(monitorField('url', { format: 'uri', description: 'Its target; null for a heartbeat, which has none (docs/heartbeats.md)' })),
        since: nullable(timestamp({ description: 'Start of the open downtime' })),
        in_maintenance: bool({ description: 'Its latest check fell in a maintenance window: planned work, not an outage (docs/alert-rules.md)' }),
      }),
      { maxItems: INT32_MAX, description: 'Every offline monitor of the caller' },
    ),
    recent_notifications: arrayOf(ref('Notification'), { maxItems: 5 }),
    checks: objectOf<Dashboard['checks']>(
      {
        per_second: num({ minimum: 0, description: 'Checks started per second by all check-workers over the last minute' }),
        lag_p99_seconds: nullable(
          num({
            minimum: 0,
            description: '99th percentile of start minus planned time over the last minute (the worst worker); null when no check ran',
          }),
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

/** The account resources (user, tokens, dashboard, preferences) and the ops answers, by component name (in the document's order). */
/** `schema` with `keys` left out of its required ones. */
const optionalKeys = (schema: JsonSchema, keys: readonly string[]): JsonSchema => ({ ...schema, required: (schema.required ?? []).filter((k) => !keys.includes(k)) });

export const ACCOUNT_SCHEMAS: Record<string, JsonSchema> = {
  User: user,
  Token: token,
  CreatedToken: objectOf<Omit<TokenResponse, 'last_used_at'> & { token: string }>(
    {
      id: id(),
      name: tokenName,
      organization_id: id('The organization the token acts in'),
      scope: tokenScope,
      token: str({ pattern: '^upt_[A-Za-z0-9_-]{40,}$', maxLength: 128, description: 'The token itself, shown only in this answer' }),
      created_at: timestamp(),
      expires_at: nullable(timestamp()),
    },
    { description: 'A new API token with its value' },
  ),
  Dashboard: dashboard,
  Preferences: preferences,
  Health: objectOf<{ status: string }>({ status: enumOf(['ok']) }),
  // details is sent only when a process stated one (a check-worker's ICMP access).
  Readiness: optionalKeys(objectOf<Omit<ReadinessReport, 'ready'> & { status: string }>({
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
    details: {
      type: 'object',
      description: "Facts a process states of itself that readiness does not hang on; absent when none. A check-worker's icmp: {available, reason} says whether it can send ping checks (docs/operations.md)",
      additionalProperties: { type: 'object' },
    },
  }), ['details']),
};
