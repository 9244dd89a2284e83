import type { Monitor } from '@uptime/db';
import { CHECK_FIELD_NAMES, CHECK_FIELD_SPECS, CHECK_FIELDS, MONITOR_TYPES, isFieldOfType, type CheckField, type SharedCheckField } from '@uptime/probe';
import { DEFAULT_PREFERENCES } from '../preferences/preferences.service';
import type { Uptime } from '../monitor-stats/uptime.repository';
import { heartbeatUrlOf } from './heartbeat-token';

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
  show?: (m: Monitor, uptime: Uptime, links: MonitorLinks) => unknown;
}

/** What an answer's links are made of: `${PUBLIC_URL}` (docs/configuration.md). */
export interface MonitorLinks {
  publicUrl: string;
}

/**
 * Why the status is what it is: a warning's reason, or for a heartbeat still online past its due
 * time, `late` (docs/heartbeats.md: online until due + grace).
 */
function statusReasonOf(m: Monitor): 'failing' | 'slow' | 'late' | null {
  if (m.status === 'warning') return m.statusReason;
  if (m.type === 'heartbeat' && m.status === 'online' && m.heartbeatDueAt !== null && m.heartbeatDueAt.getTime() < Date.now()) return 'late';
  return null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
/** Lists are sets: a repeated entry is stored once. */
const unique = (value: unknown): unknown => [...new Set(value as unknown[])];
const json = (value: unknown): unknown => JSON.stringify(value);
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
/**
 * A field of the check, as its declaration says (packages/probe/src/<type>/fields.ts): its name,
 * its default, and how its kind is stored (headers as jsonb, a list of integers as a set). A
 * field not every type has is shown as null on a monitor of another type (docs/monitors.md).
 * `options` overrides, e.g. a default taken from the owner's preferences.
 */
const checkField = <P extends CheckField & keyof Monitor>(property: P, options: StoreOptions = {}) => {
  const spec: { wire: (typeof CHECK_FIELD_SPECS)[P]['wire']; type: { kind: string }; default?: unknown } = CHECK_FIELD_SPECS[property];
  const store = spec.type.kind === 'headers' ? json : spec.type.kind === 'integers' ? unique : undefined;
  const row = writable(spec.wire, property, {
    ...('default' in spec ? { default: value(spec.default) } : {}),
    ...(store ? { store } : {}),
    ...options,
  });
  const shared = MONITOR_TYPES.every((type) => isFieldOfType(type, property));
  const show = (m: Monitor): Monitor[P] | null => (isFieldOfType(m.type, property) ? m[property] : null);
  return (shared ? row : { ...row, show }) as P extends SharedCheckField ? typeof row : typeof row & { show: typeof show };
};
/** A stored field the answer shows through `show` rather than as stored. */
const presented = <A extends string, P extends keyof Monitor, R>(api: A, property: P, show: (m: Monitor) => R) => ({
  ...stored(api, property, false, {}),
  show,
});
const computed = <A extends string, R>(api: A, show: (m: Monitor, uptime: Uptime, links: MonitorLinks) => R) => ({ api, writable: false, check: false, show });
/** A heartbeat's own field: shown as stored on a heartbeat monitor, as null on any other (docs/heartbeats.md). */
const heartbeatField = <A extends string, P extends keyof Monitor>(api: A, property: P) => ({
  ...stored(api, property, true, {}),
  show: (m: Monitor): Monitor[P] | null => (m.type === 'heartbeat' ? m[property] : null),
});

/** The fields answered before and among the check's, in their published order. */
const LEADING = [
  shown('id', 'id'),
  writable('name', 'name'),
  checkField('url'),
  // Validated before the DTO (monitor-type.ts): its fields and its url's scheme depend on it.
  writable('type', 'type', { default: value('http') }),
  checkField('method'),
  checkField('headers'),
  checkField('body'),
  checkField('expectedStatus'),
  checkField('timeout', {
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
  checkField('retryCount'),
  checkField('followRedirects'),
  checkField('verifySsl'),
  checkField('expectedContent'),
  checkField('excludedContent'),
  checkField('jsonPath'),
  checkField('expectedJsonValue'),
] as const;

/** A declared field of the check not placed above (a new one): its row, typed by its own declaration. */
type UnplacedCheckField = Exclude<CheckField, (typeof LEADING)[number]['property']>;
type UnplacedRow = { [P in UnplacedCheckField]: ReturnType<typeof checkField<P>> }[UnplacedCheckField];
/** The API names of the declared check fields not placed above (none until one is declared). */
export type UnplacedCheckWire = UnplacedRow['api'];
/** Their properties, in declaration order. */
export const UNPLACED_CHECK_FIELDS: readonly CheckField[] = CHECK_FIELD_NAMES.filter((f) => !LEADING.some((row) => row.property === f));
const unplacedRows = UNPLACED_CHECK_FIELDS.map((f) => checkField(f)) as UnplacedRow[];

const TRAILING = [
  writable('locations', 'locations', {
    default: { preference: 'default_locations', fallback: DEFAULT_PREFERENCES.defaultLocations, cast: 'text[]' },
    store: unique,
  }),
  writable('tags', 'tags', { default: value([]), store: unique }),
  // A file's name for it and whether a file manages it (docs/config-as-code.md).
  writable('key', 'key', { default: value(null) }),
  writable('managed_by', 'managedBy', { default: value(null) }),
  shown('status', 'status', { default: value('pending') }),
  presented('status_reason', 'statusReason', statusReasonOf),
  writable('response_time_threshold', 'responseTimeThreshold', { default: value(null) }),
  writable('recovery_threshold', 'recoveryThreshold', { default: value(1) }),
  writable('depends_on', 'dependsOn', { default: value([]), store: unique }),
  heartbeatField('heartbeat_period', 'heartbeatPeriod'),
  heartbeatField('heartbeat_cron', 'heartbeatCron'),
  heartbeatField('heartbeat_timezone', 'heartbeatTimezone'),
  heartbeatField('heartbeat_grace', 'heartbeatGrace'),
  computed('heartbeat_url', (m, _uptime, links) => (m.type === 'heartbeat' && m.heartbeatToken ? heartbeatUrlOf(links.publicUrl, m.heartbeatToken) : null)),
  presented('certificate_expires_at', 'certificateExpiresAt', (m) => (/^(https|tls):/i.test(m.url) ? iso(m.certificateExpiresAt) : null)),
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

/**
 * Every field of a monitor, in the order the API answers them (docs/monitors.md). This table
 * drives the create and update statements (monitors.repository.ts), the answer
 * (monitor.presenter.ts) and, through its check fields, the check the job carries. The fields of
 * the check are declared in packages/probe/src/http/fields.ts: those placed above keep the
 * position answers have always given them, a field declared later follows them by itself
 * (docs/architecture.md, "A new monitor field").
 */
export const MONITOR_FIELDS = [...LEADING, ...unplacedRows, ...TRAILING] as const;

/** One row of MONITOR_FIELDS with its exact types (the presenter derives the answer's type from them). */
export type MonitorFieldRow = (typeof MONITOR_FIELDS)[number];

/** The table as plain rows, for code that treats every field alike (and the check that every row is one). */
export const FIELDS: readonly MonitorField[] = MONITOR_FIELDS;
