import { CHECK_FIELD_SPECS, PROBED_TYPES, TYPE_CHECK_FIELDS, type CheckConfig, type CheckField, type ProbedType } from '@uptime/probe';

/** The fields a check declares a default for (packages/probe/src/<type>/fields.ts): a template may leave them out. */
type Omittable = { [F in CheckField]: 'default' extends keyof (typeof CHECK_FIELD_SPECS)[F] ? F : never }[CheckField];

/** One type's check with its defaulted fields (and the type `http`) optional. */
type Compact<C> = C extends CheckConfig ? Omit<C, Omittable | 'type'> & Partial<C> : never;

/**
 * A check configuration as a job template stores it: the fields at their declared default are
 * left out, and so is the type when it is `http` (templates written before there were other
 * types have none). Every monitor's job keeps its template in Redis, so this is most of Redis's
 * memory per monitor (docs/capacity.md). A field without a default (the URL, the timeout) is always kept.
 */
export type CompactCheckConfig = Compact<CheckConfig>;

const IS_OMITTABLE: ReadonlySet<CheckField> = new Set((Object.keys(CHECK_FIELD_SPECS) as CheckField[]).filter((f) => 'default' in CHECK_FIELD_SPECS[f]));

/** An empty list or object is a default too (the only container defaults a field may declare). */
const isEmpty = (value: unknown): boolean =>
  Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/**
 * The declared defaults of each type, frozen with their (empty) lists and objects: the probe only
 * reads them (got copies the headers). Frozen: V8 copies a frozen object into `expandCheck`'s
 * spread in a fraction of a microsecond, an ordinary one in about 7 µs, on every check
 * (docs/capacity.md, "The probe's CPU per check").
 */
const DEFAULTS = Object.fromEntries(
  PROBED_TYPES.map((type) => [
    type,
    Object.freeze({
      type,
      ...Object.fromEntries(
        TYPE_CHECK_FIELDS[type]
          .filter((f) => IS_OMITTABLE.has(f))
          .map((f) => {
            const value = (CHECK_FIELD_SPECS[f] as { default: unknown }).default;
            if (value !== null && typeof value === 'object' && !isEmpty(value)) throw new Error(`compact-check: ${f}'s default must be empty or a scalar`);
            return [f, value !== null && typeof value === 'object' ? Object.freeze(value) : value];
          }),
      ),
    }),
  ]),
) as unknown as { readonly [T in ProbedType]: Readonly<Record<string, unknown>> };

const isDefault = (type: ProbedType, key: CheckField, value: unknown): boolean => {
  const usual = DEFAULTS[type][key];
  return usual !== null && typeof usual === 'object' ? isEmpty(value) : value === usual;
};

export function compactCheck(check: CheckConfig): CompactCheckConfig {
  const compact: Record<string, unknown> = check.type === 'http' ? {} : { type: check.type };
  const values = check as unknown as Record<CheckField, unknown>;
  for (const key of TYPE_CHECK_FIELDS[check.type]) {
    if (!IS_OMITTABLE.has(key) || !isDefault(check.type, key, values[key])) compact[key] = values[key];
  }
  return compact as CompactCheckConfig;
}

/** The full configuration back; a template written whole (before compaction) passes through unchanged. */
export function expandCheck(check: CompactCheckConfig): CheckConfig {
  return { ...DEFAULTS[check.type ?? 'http'], ...check } as CheckConfig;
}
