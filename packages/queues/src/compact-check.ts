import { CHECK_FIELD_NAMES, CHECK_FIELD_SPECS, type CheckConfig, type CheckField } from '@uptime/probe';

/** The fields a check declares a default for (packages/probe/src/http/fields.ts): a template may leave them out. */
type Omittable = { [F in CheckField]: 'default' extends keyof (typeof CHECK_FIELD_SPECS)[F] ? F : never }[CheckField];

/**
 * A check configuration as a job template stores it: the fields at their declared default are
 * left out. Every monitor's job keeps its template in Redis, so this is most of Redis's memory
 * per monitor (docs/capacity.md). A field without a default (the URL, the timeout) is always kept.
 */
export type CompactCheckConfig = Omit<CheckConfig, Omittable> & Partial<CheckConfig>;

const OMITTABLE = CHECK_FIELD_NAMES.filter((f) => 'default' in CHECK_FIELD_SPECS[f]) as Omittable[];
const IS_OMITTABLE: ReadonlySet<CheckField> = new Set(OMITTABLE);

/** An empty list or object is a default too (the only container defaults a field may declare). */
const isEmpty = (value: unknown): boolean =>
  Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0;

/**
 * The declared defaults, frozen with their (empty) lists and objects: the probe only reads them
 * (got copies the headers). Frozen: V8 copies a frozen object into `expandCheck`'s spread in a
 * fraction of a microsecond, an ordinary one in about 7 µs, on every check (docs/capacity.md,
 * "The probe's CPU per check").
 */
const DEFAULTS = Object.freeze(
  Object.fromEntries(
    OMITTABLE.map((f) => {
      const value = (CHECK_FIELD_SPECS[f] as { default: unknown }).default;
      if (value !== null && typeof value === 'object' && !isEmpty(value)) throw new Error(`compact-check: ${f}'s default must be empty or a scalar`);
      return [f, value !== null && typeof value === 'object' ? Object.freeze(value) : value];
    }),
  ),
) as Readonly<Pick<CheckConfig, Omittable>>;

const isDefault = (key: Omittable, value: unknown): boolean => {
  const usual = DEFAULTS[key];
  return usual !== null && typeof usual === 'object' ? isEmpty(value) : value === usual;
};

export function compactCheck(check: CheckConfig): CompactCheckConfig {
  const compact: Partial<CheckConfig> = {};
  for (const key of CHECK_FIELD_NAMES) {
    if (!IS_OMITTABLE.has(key) || !isDefault(key as Omittable, check[key])) Object.assign(compact, { [key]: check[key] });
  }
  return compact as CompactCheckConfig;
}

/** The full configuration back; a template written whole (before compaction) passes through unchanged. */
export function expandCheck(check: CompactCheckConfig): CheckConfig {
  return { ...DEFAULTS, ...check };
}
