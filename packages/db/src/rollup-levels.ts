import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS } from './durations';

/**
 * The rollup tables of check results, finest first, with the size of their buckets. Buckets are
 * aligned to the Unix epoch (UTC). The check-worker adds each result to one bucket of every
 * level; the api reads the coarsest levels that cover a period (docs/statistics.md).
 */
export const ROLLUP_LEVELS = [
  { table: 'check_rollups_5m', stepMs: FIVE_MINUTES_MS },
  { table: 'check_rollups_1h', stepMs: HOUR_MS },
  { table: 'check_rollups_1d', stepMs: DAY_MS },
] as const;

export type RollupTable = (typeof ROLLUP_LEVELS)[number]['table'];
