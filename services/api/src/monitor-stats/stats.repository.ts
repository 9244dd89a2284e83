import type { DataSource } from '@uptime/db';
import { rollupRanges, type RollupTable } from './rollup-ranges';
import { FIVE_MINUTES_MS, floorTo } from './time-buckets';

/** The rollup and incident reads of GET /monitors/{id}/stats: never raw results. */

export interface TotalsRow {
  checks: string | null;
  successes: string | null;
  rt_count: string | null;
  rt_sum: string | null;
  rt_min: number | null;
  rt_max: number | null;
  hist: number[] | null;
}

/**
 * Checks and response times of the buckets starting within [start, now], read through
 * rollupRanges (a few dozen to ~150 rows whatever the period); the latency histograms are
 * merged element-wise for p95.
 */
export async function periodTotals(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<TotalsRow> {
  const end = new Date(floorTo(now, FIVE_MINUTES_MS).getTime() + FIVE_MINUTES_MS);
  const params: unknown[] = [monitorId];
  const branches = rollupRanges(start, end, now).map((r) => {
    params.push(r.from, r.to);
    return `SELECT checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist FROM ${r.table}
             WHERE monitor_id = $1 AND bucket >= $${params.length - 1} AND bucket < $${params.length}`;
  });
  const [row]: TotalsRow[] = await ds.query(
    `WITH r AS (${branches.join(' UNION ALL ')})
     SELECT sum(checks) AS checks, sum(successes) AS successes, sum(rt_count) AS rt_count, sum(rt_sum) AS rt_sum,
            min(rt_min) AS rt_min, max(rt_max) AS rt_max,
            (SELECT array_agg(total ORDER BY i) FROM (
               SELECT i, sum(n)::int AS total FROM r, unnest(r.rt_hist) WITH ORDINALITY AS h(n, i) GROUP BY i) cells) AS hist
       FROM r`,
    params,
  );
  return row!;
}

/** Incidents overlapping [start, now]; downtime counted within it (an open one up to now). */
export async function incidentTotals(
  ds: DataSource,
  monitorId: number,
  start: Date,
  now: Date,
): Promise<{ count: number; totalDowntime: number }> {
  const [row]: { count: number; downtime: string | null }[] = await ds.query(
    `SELECT count(*)::int AS count,
            round(sum(extract(epoch FROM LEAST(COALESCE(resolved_at, $3), $3) - GREATEST(started_at, $2)))) AS downtime
       FROM incidents
      WHERE monitor_id = $1 AND started_at <= $3 AND (resolved_at IS NULL OR resolved_at > $2)`,
    [monitorId, start, now],
  );
  return { count: row?.count ?? 0, totalDowntime: Math.max(0, Number(row?.downtime ?? 0)) };
}

/** The rollup rows of one table whose bucket starts within [first, last]. */
export function bucketRows(
  ds: DataSource,
  table: RollupTable,
  monitorId: number,
  first: Date,
  last: Date,
): Promise<{ bucket: Date; checks: number; successes: number; rt_count: number; rt_sum: string }[]> {
  return ds.query(
    `SELECT bucket, checks, successes, rt_count, rt_sum FROM ${table} WHERE monitor_id = $1 AND bucket >= $2 AND bucket <= $3`,
    [monitorId, first, last],
  );
}
