import type { FieldSpecs, ValuesOf, WireNames } from './fields/field-spec';
import { HTTP_FIELDS } from './http/fields';

export type { ProbeResult, CheckTimings } from './http/result';

/** The fields of a type that are part of its check configuration (`check: true`). */
type CheckPart<F extends FieldSpecs> = { [K in keyof F as F[K]['check'] extends true ? K : never]: F[K] };

/** The declared fields of the check, in the order of the agent protocol's `check` object. */
export const CHECK_FIELD_SPECS = Object.fromEntries(Object.entries(HTTP_FIELDS).filter(([, spec]) => spec.check)) as CheckPart<typeof HTTP_FIELDS>;

/**
 * Everything one check needs, carried in the scheduler's job template (no database read per
 * check): the values of the check fields declared in `http/fields.ts`, by property name.
 */
export type CheckConfig = ValuesOf<typeof CHECK_FIELD_SPECS>;

/** A property of CheckConfig. */
export type CheckField = keyof typeof CHECK_FIELD_SPECS;

/** The properties of CheckConfig, in declaration order. */
export const CHECK_FIELD_NAMES = Object.keys(CHECK_FIELD_SPECS) as CheckField[];

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
}
