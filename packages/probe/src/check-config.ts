import type { ValuesOf, WireNames } from './fields/field-spec';
import { HTTP_FIELDS } from './http/fields';

export type { ProbeResult, CheckTimings } from './http/result';

/**
 * Everything one check needs, carried in the scheduler's job template (no database read per
 * check): the values of the fields declared in `http/fields.ts`, by property name.
 */
export type CheckConfig = ValuesOf<typeof HTTP_FIELDS>;

/** The declared fields of a check, in the order of the agent protocol's `check` object. */
export const CHECK_FIELD_SPECS = HTTP_FIELDS;

/** A property of CheckConfig. */
export type CheckField = keyof typeof HTTP_FIELDS;

/** The properties of CheckConfig, in declaration order. */
export const CHECK_FIELD_NAMES = Object.keys(HTTP_FIELDS) as CheckField[];

/**
 * Each field of a check and its snake_case name, the one the REST API and the agent protocol
 * use. `checkConfigOf()` (packages/queues) copies these properties from a monitor,
 * `toWireCheck()`/`fromWireCheck()` (packages/agent-protocol) rename them, and the API's monitor
 * field table marks them (services/api/src/monitors/monitor-fields.ts).
 */
export const CHECK_FIELDS = Object.fromEntries(CHECK_FIELD_NAMES.map((f) => [f, HTTP_FIELDS[f].wire])) as WireNames<typeof HTTP_FIELDS>;

export interface ProbeOptions {
  /** Lift the SSRF guard (docs/configuration.md ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Body bytes read at most (default 1 MiB). */
  maxBodyBytes?: number;
}
