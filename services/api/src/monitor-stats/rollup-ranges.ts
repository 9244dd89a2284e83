import { DAY_MS, ROLLUP_LEVELS, type RollupTable } from '@uptime/db';
import { ceilTo, floorTo } from './time-buckets';

export type { RollupTable } from '@uptime/db';

/** How long each rollup table is kept by the retention job; daily rollups are kept for good. */
export const ROLLUP_RETENTION_DAYS: Readonly<Partial<Record<RollupTable, number>>> = { check_rollups_5m: 35, check_rollups_1h: 400 };

/** Buckets of `table` with from <= bucket < to. */
export interface RollupRange {
  table: RollupTable;
  from: Date;
  to: Date;
}

/**
 * Covers the buckets starting in [start, end) with as few rollup rows as possible: fine buckets at
 * the two edges, coarser ones inside (5-minute up to the first full hour, hourly up to the first
 * midnight, daily between midnights, then back down). `start` is rounded up to the finest level
 * still kept at that age, so a period older than the 5-minute retention starts on the hour.
 * `end` must be a multiple of 5 minutes.
 */
export function rollupRanges(start: Date, end: Date, now: Date): RollupRange[] {
  let level = ROLLUP_LEVELS.findIndex(({ table }) => {
    const days = ROLLUP_RETENTION_DAYS[table];
    return days === undefined || start.getTime() >= now.getTime() - days * DAY_MS;
  });
  let lo = ceilTo(start, ROLLUP_LEVELS[level]!.stepMs).getTime();
  const hiEnd = end.getTime();
  const ranges: RollupRange[] = [];
  const push = (l: number, from: number, to: number): void => {
    if (to > from) ranges.push({ table: ROLLUP_LEVELS[l]!.table, from: new Date(from), to: new Date(to) });
  };
  while (level < ROLLUP_LEVELS.length - 1) {
    const next = ceilTo(lo, ROLLUP_LEVELS[level + 1]!.stepMs).getTime();
    if (next >= hiEnd) break;
    push(level, lo, next);
    lo = next;
    level += 1;
  }
  for (; level >= 0; level -= 1) {
    const hi = level === 0 ? hiEnd : floorTo(hiEnd, ROLLUP_LEVELS[level]!.stepMs).getTime();
    if (hi > lo) {
      push(level, lo, hi);
      lo = hi;
    }
  }
  return ranges;
}
