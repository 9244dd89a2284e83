import { MAX_START_LAG_MS, type DataSource } from '@uptime/db';

/**
 * The raw reads of a per-check series (GET /monitors/{id}/stats over 1h, 3h or 6h,
 * docs/statistics.md): a few hundred rows of one monitor, through the (monitor_id, scheduled_at)
 * key, instead of rollups, so the chart has a point per check and the figures beside it count the
 * very same checks.
 */

export interface PerCheckRow {
  checked_at: Date;
  ok: boolean;
  response_time: number | null;
  maintenance: boolean;
}

export interface PerCheckTotals {
  checks: number;
  successes: number;
  rtCount: number;
  rtSum: number;
  rtMin: number | null;
  rtMax: number | null;
  /** Exact: the nearest-rank 95th percentile of the response times. */
  p95: number | null;
}

const CHECKED_AT = `(scheduled_at + start_lag_ms * interval '1 millisecond')`;
// A check's start lags its plan by at most MAX_START_LAG_MS: the bound on the planned time lets
// Postgres skip the daily partitions before the period.
const IN_PERIOD = `monitor_id = $1 AND scheduled_at >= $2::timestamptz - ${MAX_START_LAG_MS} * interval '1 millisecond'
                   AND ${CHECKED_AT} >= $2 AND ${CHECKED_AT} <= $3`;

/** The checks within [start, now], oldest first; the newest `limit` when there are more. */
export async function perCheckRows(ds: DataSource, monitorId: number, start: Date, now: Date, limit: number): Promise<PerCheckRow[]> {
  const rows: PerCheckRow[] = await ds.query(
    `SELECT ${CHECKED_AT} AS checked_at, ok, response_time, maintenance FROM check_results
      WHERE ${IN_PERIOD} ORDER BY scheduled_at DESC LIMIT $4`,
    [monitorId, start, now, limit],
  );
  return rows.reverse();
}

/** Checks and response times within [start, now], those made in a maintenance window left out (as the rollups leave them). */
export async function perCheckTotals(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<PerCheckTotals> {
  const [row]: { checks: number; successes: number; rt_count: number; rt_sum: string | null; rt_min: number | null; rt_max: number | null; p95: number | null }[] =
    await ds.query(
      `SELECT count(*)::int AS checks, count(*) FILTER (WHERE ok)::int AS successes, count(response_time)::int AS rt_count,
              sum(response_time) AS rt_sum, min(response_time) AS rt_min, max(response_time) AS rt_max,
              percentile_disc(0.95) WITHIN GROUP (ORDER BY response_time) AS p95
         FROM check_results
        WHERE ${IN_PERIOD} AND NOT maintenance`,
      [monitorId, start, now],
    );
  return {
    checks: row?.checks ?? 0,
    successes: row?.successes ?? 0,
    rtCount: row?.rt_count ?? 0,
    rtSum: Number(row?.rt_sum ?? 0),
    rtMin: row?.rt_min ?? null,
    rtMax: row?.rt_max ?? null,
    p95: row?.p95 ?? null,
  };
}
