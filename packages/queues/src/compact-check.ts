import type { CheckConfig } from '@uptime/probe';

/**
 * A check configuration as a job template stores it: the fields that equal `OMITTED` are left
 * out. Every monitor's job keeps its template in Redis, so this is most of Redis's memory per
 * monitor (docs/capacity.md). The table is
 * an encoding, not the product's defaults: any value here round-trips, a common one saves more.
 */
export type CompactCheckConfig = Pick<CheckConfig, 'url' | 'timeout'> & Partial<CheckConfig>;

/**
 * Frozen: V8 copies a frozen object into `expandCheck`'s spread in a fraction of a microsecond, an
 * ordinary one in about 7 µs, on every check (docs/capacity.md, "The probe's CPU per check").
 */
const OMITTED = Object.freeze({
  method: 'GET',
  body: null,
  followRedirects: true,
  verifySsl: true,
  expectedContent: null,
  excludedContent: null,
  jsonPath: null,
  expectedJsonValue: null,
  retryCount: 0,
} as const satisfies Partial<CheckConfig>);

type Omittable = keyof typeof OMITTED;
const OMITTABLE = Object.keys(OMITTED) as Omittable[];

export function compactCheck(check: CheckConfig): CompactCheckConfig {
  const compact: CompactCheckConfig = { url: check.url, timeout: check.timeout };
  for (const key of OMITTABLE) if (check[key] !== OMITTED[key]) Object.assign(compact, { [key]: check[key] });
  if (Object.keys(check.headers).length > 0) compact.headers = check.headers;
  if (check.expectedStatus.length > 0) compact.expectedStatus = check.expectedStatus;
  return compact;
}

/** The full configuration back; a template written whole (before compaction) passes through unchanged. */
export function expandCheck(check: CompactCheckConfig): CheckConfig {
  return { ...OMITTED, headers: {}, expectedStatus: [], ...check };
}
