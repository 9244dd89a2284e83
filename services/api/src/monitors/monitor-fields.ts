import type { Monitor } from '@uptime/db';
import { CHECK_FIELDS } from '@uptime/probe';
import { DEFAULT_PREFERENCES } from '../preferences/preferences.service';
import type { Uptime } from '../monitor-stats/uptime.repository';

/**
 * What a create stores for a field the body leaves out: a value, or the owner's preference
 * (a `user_preferences` column, docs/dashboard.md) with the product's default when none was saved.
 * `atLeastFloor`: the preferred interval is kept at or above MIN_CHECK_INTERVAL_SECONDS should
 * the floor have risen since it was saved.
 */
export type FieldDefault =
  | { value: unknown }
  | {
      preference: 'default_timeout' | 'default_check_interval' | 'default_locations';
      fallback: unknown;
      cast: 'integer' | 'text[]';
      atLeastFloor?: true;
    };

/** One field of a monitor as the API shows it, and where it is stored. */
export interface MonitorField {
  /** The name in request bodies and answers. */
  api: string;
  /** The entity property and the `monitors` column; absent for a figure computed for the answer. */
  property?: keyof Monitor;
  column?: string;
  /** What a create stores when the body leaves the field out; absent: the column's own default. */
  default?: FieldDefault;
  /** Taken from create and update bodies (MonitorFieldsDto validates it). */
  writable: boolean;
  /** Part of the check configuration the job template carries (CHECK_FIELDS of packages/probe). */
  check: boolean;
  /** How a written value is stored; absent: as given. */
  store?: (value: unknown) => unknown;
  /** How the answer shows the field; absent: the stored value. */
  show?: (m: Monitor, uptime: Uptime) => unknown;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
/** Lists are sets: a repeated entry is stored once. */
const unique = (value: unknown): unknown => [...new Set(value as unknown[])];
const value = (v: unknown): FieldDefault => ({ value: v });

type StoreOptions = Partial<Pick<MonitorField, 'column' | 'default' | 'store'>>;

/** A stored field; its column is its API name unless `options.column` says otherwise. */
function stored<A extends string, P extends keyof Monitor>(api: A, property: P, writable: boolean, options: StoreOptions) {
  const check = property in CHECK_FIELDS;
  // One name per field: the job's and the agent protocol's name is the API's.
  if (check && CHECK_FIELDS[property as keyof typeof CHECK_FIELDS] !== api) throw new Error(`Check field ${property} is ${api} in the API`);
  return { api, property, column: api, writable, check, ...options };
}
const writable = <A extends string, P extends keyof Monitor>(api: A, property: P, options: StoreOptions = {}) =>
  stored(api, property, true, options);
const shown = <A extends string, P extends keyof Monitor>(api: A, property: P, options: StoreOptions = {}) =>
  stored(api, property, false, options);
/** A stored field the answer shows through `show` rather than as stored. */
const presented = <A extends string, P extends keyof Monitor, R>(api: A, property: P, show: (m: Monitor) => R) => ({
  ...stored(api, property, false, {}),
  show,
});
const computed = <A extends string, R>(api: A, show: (m: Monitor, uptime: Uptime) => R) => ({ api, writable: false, check: false, show });

/**
 * Every field of a monitor, in the order the API answers them (docs/monitors.md). This table
 * drives the create and update statements (monitors.repository.ts), the answer
 * (monitor.presenter.ts) and, through CHECK_FIELDS, the check the job carries. A new field is a
 * row here, a property of MonitorFieldsDto and of the entity, and a migration.
 */
export const MONITOR_FIELDS = [
  shown('id', 'id'),
  writable('name', 'name'),
  writable('url', 'url'),
  // Accepted in bodies and validated (monitor-type.ts), never stored: only http exists.
  shown('type', 'type', { default: value('http') }),
  writable('method', 'method', { default: value('GET') }),
  writable('headers', 'headers', { default: value({}), store: (headers) => JSON.stringify(headers) }),
  writable('body', 'body', { default: value(null) }),
  writable('expected_status', 'expectedStatus', { default: value([]), store: unique }),
  writable('timeout', 'timeout', {
    default: { preference: 'default_timeout', fallback: DEFAULT_PREFERENCES.defaultTimeout, cast: 'integer' },
  }),
  writable('check_interval', 'checkInterval', {
    default: {
      preference: 'default_check_interval',
      fallback: DEFAULT_PREFERENCES.defaultCheckInterval,
      cast: 'integer',
      atLeastFloor: true,
    },
  }),
  writable('retry_count', 'retryCount', { default: value(0) }),
  writable('follow_redirects', 'followRedirects', { default: value(true) }),
  writable('verify_ssl', 'verifySsl', { default: value(true) }),
  writable('expected_content', 'expectedContent', { default: value(null) }),
  writable('excluded_content', 'excludedContent', { default: value(null) }),
  writable('json_path', 'jsonPath', { default: value(null) }),
  writable('expected_json_value', 'expectedJsonValue', { default: value(null) }),
  writable('locations', 'locations', {
    default: { preference: 'default_locations', fallback: DEFAULT_PREFERENCES.defaultLocations, cast: 'text[]' },
    store: unique,
  }),
  writable('tags', 'tags', { default: value([]), store: unique }),
  shown('status', 'status', { default: value('pending') }),
  presented('status_reason', 'statusReason', (m) => (m.status === 'warning' ? m.statusReason : null)),
  writable('response_time_threshold', 'responseTimeThreshold', { default: value(null) }),
  writable('recovery_threshold', 'recoveryThreshold', { default: value(1) }),
  writable('depends_on', 'dependsOn', { default: value([]), store: unique }),
  presented('certificate_expires_at', 'certificateExpiresAt', (m) => (/^https:/i.test(m.url) ? iso(m.certificateExpiresAt) : null)),
  computed('uptime_24h', (_m, uptime) => uptime['24h']),
  computed('uptime_7d', (_m, uptime) => uptime['7d']),
  computed('uptime_30d', (_m, uptime) => uptime['30d']),
  shown('response_time', 'responseTime'),
  presented('last_check', 'lastCheck', (m) => iso(m.lastCheck)),
  presented('last_success', 'lastSuccess', (m) => iso(m.lastSuccess)),
  presented('last_failure', 'lastFailure', (m) => iso(m.lastFailure)),
  presented('paused_at', 'pausedAt', (m) => iso(m.pausedAt)),
  shown('pause_reason', 'pauseReason'),
  shown('in_maintenance', 'inMaintenance'),
  presented('created_at', 'createdAt', (m) => m.createdAt.toISOString()),
  presented('updated_at', 'updatedAt', (m) => m.updatedAt.toISOString()),
] as const;

/** One row of MONITOR_FIELDS with its exact types (the presenter derives the answer's type from them). */
export type MonitorFieldRow = (typeof MONITOR_FIELDS)[number];

/** The table as plain rows, for code that treats every field alike (and the check that every row is one). */
export const FIELDS: readonly MonitorField[] = MONITOR_FIELDS;
