import type { FieldSpecs, ValuesOf, WireNames } from './fields/field-spec';
import { HTTP_FIELDS } from './http/fields';
import { PING_FIELDS } from './ping/fields';
import type { PingBackend } from './ping/ping-backend';
import { TCP_FIELDS } from './tcp/fields';
import { DNS_FIELDS } from './dns/fields';

export type { ProbeResult, CheckTimings } from './http/result';
export type { DnsResult } from './dns/result';

/** The fields of a type that are part of its check configuration (`check: true`). */
type CheckPart<F extends FieldSpecs> = { [K in keyof F as F[K]['check'] extends true ? K : never]: F[K] };

/**
 * Every probed monitor type and its declared fields (its folder's `fields.ts`), in the order the
 * API lists the types (docs/architecture.md, "A new monitor type").
 */
export const MONITOR_TYPE_FIELDS = { http: HTTP_FIELDS, tcp: TCP_FIELDS, dns: DNS_FIELDS, ping: PING_FIELDS } as const;

/** A type whose monitors a probe checks: the only types a check, a job or an agent carries. */
export type ProbedType = keyof typeof MONITOR_TYPE_FIELDS;
export const PROBED_TYPES = Object.keys(MONITOR_TYPE_FIELDS) as ProbedType[];
export const isProbedType = (value: unknown): value is ProbedType => typeof value === 'string' && Object.hasOwn(MONITOR_TYPE_FIELDS, value);

/**
 * The types nothing probes: a heartbeat monitor is up while pings arrive on time
 * (docs/heartbeats.md). It has no check fields, no url, no schedule of checks and no agents.
 */
export const UNPROBED_TYPES = ['heartbeat'] as const;

/** A monitor type: how a monitor is checked, or for a heartbeat, how it reports in. */
export type MonitorType = ProbedType | (typeof UNPROBED_TYPES)[number];
export const MONITOR_TYPES: readonly MonitorType[] = [...PROBED_TYPES, ...UNPROBED_TYPES];
export const isMonitorType = (value: unknown): value is MonitorType => typeof value === 'string' && (MONITOR_TYPES as readonly string[]).includes(value);

/** The check of one type: its type and the values of its check fields, by property name. */
export type HttpCheckConfig = { type: 'http' } & ValuesOf<CheckPart<typeof HTTP_FIELDS>>;
export type TcpCheckConfig = { type: 'tcp' } & ValuesOf<CheckPart<typeof TCP_FIELDS>>;
export type DnsCheckConfig = { type: 'dns' } & ValuesOf<CheckPart<typeof DNS_FIELDS>>;
export type PingCheckConfig = { type: 'ping' } & ValuesOf<CheckPart<typeof PING_FIELDS>>;

/**
 * Everything one check needs, carried in the scheduler's job template (no database read per
 * check): its type and the values of that type's check fields, by property name.
 */
export type CheckConfig = HttpCheckConfig | TcpCheckConfig | DnsCheckConfig | PingCheckConfig;

const checkPart = <F extends FieldSpecs>(fields: F): CheckPart<F> => Object.fromEntries(Object.entries(fields).filter(([, spec]) => spec.check)) as CheckPart<F>;

/**
 * The declared check fields of every type, by property name: a field two types share (the
 * timeout, the content rules) is one property, one column and one wire name; the url is the
 * first type's declaration here (each type's own is in MONITOR_TYPE_FIELDS).
 */
export const CHECK_FIELD_SPECS = { ...checkPart(PING_FIELDS), ...checkPart(DNS_FIELDS), ...checkPart(TCP_FIELDS), ...checkPart(HTTP_FIELDS) };

/** A property of some type's check. */
export type CheckField = keyof typeof CHECK_FIELD_SPECS;

/** The values of every type's check fields, as a monitor row holds them. */
export type CheckFieldValues = ValuesOf<typeof CHECK_FIELD_SPECS>;

/** The check properties, http's in declaration order, then the other types' own. */
export const CHECK_FIELD_NAMES = [
  ...new Set([...Object.keys(checkPart(HTTP_FIELDS)), ...Object.values(MONITOR_TYPE_FIELDS).flatMap((f) => Object.keys(checkPart(f)))]),
] as CheckField[];

/** The check properties of each type, in its declaration order. */
export const TYPE_CHECK_FIELDS: { readonly [T in MonitorType]: readonly CheckField[] } = {
  http: Object.keys(checkPart(HTTP_FIELDS)) as CheckField[],
  tcp: Object.keys(checkPart(TCP_FIELDS)) as CheckField[],
  dns: Object.keys(checkPart(DNS_FIELDS)) as CheckField[],
  ping: Object.keys(checkPart(PING_FIELDS)) as CheckField[],
  heartbeat: [],
};

/**
 * The check fields every type has: never shown as null. None since heartbeat monitors, which
 * have no check (not even a url).
 */
export type SharedCheckField = never;

/** Whether a check field belongs to a type (a field of another type is refused, and shown as null). */
export const isFieldOfType = (type: MonitorType, field: CheckField): boolean => TYPE_CHECK_FIELDS[type].includes(field);

/**
 * Each field of a check and its snake_case name, the one the REST API and the agent protocol
 * use. `checkConfigOf()` (packages/queues) copies these properties from a monitor,
 * `toWireCheck()`/`fromWireCheck()` (packages/agent-protocol) rename them, and the API's monitor
 * field table marks them (services/api/src/monitors/monitor-fields.ts).
 */
export const CHECK_FIELDS = Object.fromEntries(CHECK_FIELD_NAMES.map((f) => [f, CHECK_FIELD_SPECS[f].wire])) as WireNames<typeof CHECK_FIELD_SPECS>;

export interface ProbeOptions {
  /** Lift the SSRF guard (docs/configuration.md ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Body bytes read at most (default 1 MiB). */
  maxBodyBytes?: number;
  /** How ping checks send echo requests: ICMP sockets of this process or iputils `ping` (default: `ping` from the PATH, ping/pinger.ts). */
  pinger?: PingBackend;
}
