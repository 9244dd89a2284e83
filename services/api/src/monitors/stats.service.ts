import { histogramQuantile, type DataSource } from '@uptime/db';
import { getMonitor } from './monitors.service';
import { noDataSpans, secondsWithin, type NoDataSpanView } from './no-data.repository';
import { rollupRanges, type RollupTable } from './rollup-ranges';
import { STATS_GRANULARITIES, STATS_PERIODS, type StatsQuery } from './stats.query';
import { FIVE_MINUTES_MS, floorTo } from './time-buckets';
import { uptimeByMonitor, uptimePercent, type Uptime, type UptimeSource } from './uptime.repository';

export interface SeriesBucket {
  timestamp: Date;
  checks: number;
  successes: number;
  rtCount: number;
  rtSum: number;
}

export interface MonitorStats extends StatsQuery {
  uptime: Uptime;
  responseTimes: { avg: number | null; min: number | null; max: number | null; p95: number | null };
  incidents: { count: number; totalDowntime: number };
  checks: { total: number; successful: number };
  series: SeriesBucket[];
  /** Unchecked time within the period; uptime leaves it out (it counts checks only). */
  noData: { totalSeconds: number; spans: NoDataSpanView[] };
  /** The time the statistics were read at (an open span's duration runs to it). */
  now: Date;
}

const GRANULARITY_TABLE: Record<StatsQuery['granularity'], RollupTable> = { '5m': 'check_rollups_5m', '1h': 'check_rollups_1h', '1d': 'check_rollups_1d' };

interface TotalsRow {
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
async function periodTotals(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<TotalsRow> {
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
async function incidentTotals(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<{ count: number; totalDowntime: number }> {
  const [row]: { count: number; downtime: string | null }[] = await ds.query(
    `SELECT count(*)::int AS count,
            round(sum(extract(epoch FROM LEAST(COALESCE(resolved_at, $3), $3) - GREATEST(started_at, $2)))) AS downtime
       FROM incidents
      WHERE monitor_id = $1 AND started_at <= $3 AND (resolved_at IS NULL OR resolved_at > $2)`,
    [monitorId, start, now],
  );
  return { count: row?.count ?? 0, totalDowntime: Math.max(0, Number(row?.downtime ?? 0)) };
}

/** Every bucket of the granularity overlapping the period, empty ones included. */
async function seriesOf(ds: DataSource, monitorId: number, query: StatsQuery, start: Date, now: Date): Promise<SeriesBucket[]> {
  const step = STATS_GRANULARITIES[query.granularity];
  const first = floorTo(start, step).getTime();
  const last = floorTo(now, step).getTime();
  const rows: { bucket: Date; checks: number; successes: number; rt_count: number; rt_sum: string }[] = await ds.query(
    `SELECT bucket, checks, successes, rt_count, rt_sum FROM ${GRANULARITY_TABLE[query.granularity]}
      WHERE monitor_id = $1 AND bucket >= $2 AND bucket <= $3`,
    [monitorId, new Date(first), new Date(last)],
  );
  const byBucket = new Map(rows.map((r) => [r.bucket.getTime(), r]));
  const series: SeriesBucket[] = [];
  for (let t = first; t <= last; t += step) {
    const r = byBucket.get(t);
    series.push({ timestamp: new Date(t), checks: r?.checks ?? 0, successes: r?.successes ?? 0, rtCount: r?.rt_count ?? 0, rtSum: Number(r?.rt_sum ?? 0) });
  }
  return series;
}

/** GET /monitors/{id}/stats (docs/monitors.md): everything from rollups and incidents, never raw results. */
export async function monitorStats(source: UptimeSource, ownerId: number, id: number, query: StatsQuery, now = new Date()): Promise<MonitorStats> {
  const monitor = await getMonitor(source.ds, ownerId, id);
  const start = new Date(now.getTime() - STATS_PERIODS[query.period]);
  const [uptime, totals, incidents, series, spans] = await Promise.all([
    uptimeByMonitor(source, [id], now),
    periodTotals(source.ds, id, start, now),
    incidentTotals(source.ds, id, start, now),
    seriesOf(source.ds, id, query, start, now),
    noDataSpans(source.ds, monitor, { from: start, to: now }, now),
  ]);
  const rtCount = Number(totals.rt_count ?? 0);
  const max = totals.rt_max;
  const p95 = histogramQuantile(totals.hist ?? [], 0.95);
  return {
    ...query,
    uptime: uptime.get(id)!,
    responseTimes: {
      avg: rtCount > 0 ? Math.round(Number(totals.rt_sum) / rtCount) : null,
      min: totals.rt_min,
      max,
      // The histogram gives the upper bound of p95's cell; the slowest response caps it.
      p95: p95 === null ? null : max === null ? p95 : Math.min(p95, max),
    },
    incidents,
    checks: { total: Number(totals.checks ?? 0), successful: Number(totals.successes ?? 0) },
    series,
    noData: { totalSeconds: secondsWithin(spans, start, now), spans },
    now,
  };
}

/** Uptime of a series bucket, or null when nothing was checked in it. */
export const bucketUptime = (b: SeriesBucket): number | null => uptimePercent(b.successes, b.checks);
