import { histogramQuantile, type DataSource } from '@uptime/db';
import { getMonitor } from '../monitors/monitors.service';
import { noDataSpans, secondsWithin, type NoDataSpanView } from '../check-results/no-data.repository';
import type { RollupTable } from './rollup-ranges';
import { STATS_GRANULARITIES, STATS_PERIODS, type StatsQuery } from './stats.params';
import { bucketRows, incidentTotals, periodTotals } from './stats.repository';
import { floorTo } from './time-buckets';
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

/** Every bucket of the granularity overlapping the period, empty ones included. */
async function seriesOf(ds: DataSource, monitorId: number, query: StatsQuery, start: Date, now: Date): Promise<SeriesBucket[]> {
  const step = STATS_GRANULARITIES[query.granularity];
  const first = floorTo(start, step).getTime();
  const last = floorTo(now, step).getTime();
  const rows = await bucketRows(ds, GRANULARITY_TABLE[query.granularity], monitorId, new Date(first), new Date(last));
  const byBucket = new Map(rows.map((r) => [r.bucket.getTime(), r]));
  const series: SeriesBucket[] = [];
  for (let t = first; t <= last; t += step) {
    const r = byBucket.get(t);
    series.push({ timestamp: new Date(t), checks: r?.checks ?? 0, successes: r?.successes ?? 0, rtCount: r?.rt_count ?? 0, rtSum: Number(r?.rt_sum ?? 0) });
  }
  return series;
}

/** GET /monitors/{id}/stats (docs/monitors.md): everything from rollups and incidents, never raw results. */
export async function monitorStats(source: UptimeSource, organizationId: number, id: number, query: StatsQuery, now = new Date()): Promise<MonitorStats> {
  const monitor = await getMonitor(source.ds, organizationId, id);
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
