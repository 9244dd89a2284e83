import { histogramQuantile, type DataSource } from '@uptime/db';
import { getMonitor } from '../monitors/monitors.service';
import { noDataSpans, secondsWithin, type NoDataSpanView } from '../check-results/no-data.repository';
import type { RollupTable } from './rollup-ranges';
import { perCheckRows, perCheckTotals, type PerCheckTotals } from './per-check.repository';
import { MAX_SERIES_BUCKETS, PER_CHECK, STATS_GRANULARITIES, STATS_PERIODS, type BucketGranularity, type StatsQuery } from './stats.params';
import { bucketRows, incidentTotals, periodTotals } from './stats.repository';
import { heartbeatOfflineSpans, offlineAt, timeUptimePercent, type HeartbeatOffline } from './heartbeat-uptime.repository';
import { floorTo } from './time-buckets';
import { uptimeByMonitor, uptimePercent, type Uptime, type UptimeSource } from './uptime.repository';

export interface SeriesBucket {
  timestamp: Date;
  checks: number;
  successes: number;
  rtCount: number;
  rtSum: number;
  /** A per-check point made in a maintenance window (counted nowhere); rollups leave such checks out, so a bucket never is. */
  maintenance: boolean;
  /**
   * A heartbeat's uptime in the bucket, time not offline (docs/statistics.md); undefined for
   * other monitors, whose bucket uptime is successes over checks.
   */
  timeUptime?: number | null;
}

export interface MonitorStats extends StatsQuery {
  uptime: Uptime;
  responseTimes: { avg: number | null; min: number | null; max: number | null; p95: number | null };
  incidents: { count: number; totalDowntime: number };
  checks: { total: number; successful: number };
  /** A heartbeat only: the share of the period (from its creation) it was not offline; undefined for other monitors. */
  periodUptime?: number | null;
  series: SeriesBucket[];
  /** Unchecked time within the period; uptime leaves it out (it counts checks only). */
  noData: { totalSeconds: number; spans: NoDataSpanView[] };
  /** The time the statistics were read at (an open span's duration runs to it). */
  now: Date;
}

const GRANULARITY_TABLE: Record<BucketGranularity, RollupTable> = { '5m': 'check_rollups_5m', '1h': 'check_rollups_1h', '1d': 'check_rollups_1d' };

/** Every bucket of the granularity overlapping the period, empty ones included. */
async function seriesOf(ds: DataSource, monitorId: number, granularity: BucketGranularity, start: Date, now: Date): Promise<SeriesBucket[]> {
  const step = STATS_GRANULARITIES[granularity];
  const first = floorTo(start, step).getTime();
  const last = floorTo(now, step).getTime();
  const rows = await bucketRows(ds, GRANULARITY_TABLE[granularity], monitorId, new Date(first), new Date(last));
  const byBucket = new Map(rows.map((r) => [r.bucket.getTime(), r]));
  const series: SeriesBucket[] = [];
  for (let t = first; t <= last; t += step) {
    const r = byBucket.get(t);
    series.push({
      timestamp: new Date(t),
      checks: r?.checks ?? 0,
      successes: r?.successes ?? 0,
      rtCount: r?.rt_count ?? 0,
      rtSum: Number(r?.rt_sum ?? 0),
      maintenance: false,
    });
  }
  return series;
}

/** A point per check within the period; one made in a maintenance window counts nowhere, as in the rollups. */
async function perCheckSeries(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<SeriesBucket[]> {
  const rows = await perCheckRows(ds, monitorId, start, now, MAX_SERIES_BUCKETS);
  return rows.map((r) => {
    const counted = !r.maintenance;
    const timed = counted && r.response_time !== null;
    return {
      timestamp: r.checked_at,
      checks: counted ? 1 : 0,
      successes: counted && r.ok ? 1 : 0,
      rtCount: timed ? 1 : 0,
      rtSum: timed ? r.response_time! : 0,
      maintenance: r.maintenance,
    };
  });
}

/** The rollups' totals of the period in the shape of the raw checks' (p95 from the merged histograms). */
async function rollupTotals(ds: DataSource, monitorId: number, start: Date, now: Date): Promise<PerCheckTotals> {
  const totals = await periodTotals(ds, monitorId, start, now);
  const p95 = histogramQuantile(totals.hist ?? [], 0.95);
  const max = totals.rt_max;
  return {
    checks: Number(totals.checks ?? 0),
    successes: Number(totals.successes ?? 0),
    rtCount: Number(totals.rt_count ?? 0),
    rtSum: Number(totals.rt_sum ?? 0),
    rtMin: totals.rt_min,
    rtMax: max,
    // The histogram gives the upper bound of p95's cell; the slowest response caps it.
    p95: p95 === null ? null : max === null ? p95 : Math.min(p95, max),
  };
}

/**
 * GET /monitors/{id}/stats (docs/statistics.md): from rollups and incidents; over 1h, 3h and 6h
 * at per-check granularity, the series and the figures from the same raw checks, so the chart and
 * the counters beside it count the same thing.
 */
export async function monitorStats(source: UptimeSource, organizationId: number, id: number, query: StatsQuery, now = new Date()): Promise<MonitorStats> {
  const monitor = await getMonitor(source.ds, organizationId, id);
  const start = new Date(now.getTime() - STATS_PERIODS[query.period]);
  const perCheck = query.granularity === PER_CHECK;
  const [uptime, totals, incidents, series, spans] = await Promise.all([
    uptimeByMonitor(source, [id], now),
    perCheck ? perCheckTotals(source.ds, id, start, now) : rollupTotals(source.ds, id, start, now),
    incidentTotals(source.ds, id, start, now),
    query.granularity === PER_CHECK ? perCheckSeries(source.ds, id, start, now) : seriesOf(source.ds, id, query.granularity, start, now),
    noDataSpans(source.ds, monitor, { from: start, to: now }, now),
  ]);
  const heartbeat = monitor.type === 'heartbeat';
  // A heartbeat's uptime is time not offline, never a share of its pings and missed deadlines
  // (docs/heartbeats.md): the period's figure and each bucket's read its incidents, like its
  // uptime windows (heartbeatUptimes()). Its counts stay counts (docs/statistics.md).
  const offline = heartbeat ? (await heartbeatOfflineSpans(source.ds, [id], seriesStart(query, start), now)).get(id) : undefined;
  return {
    ...query,
    uptime: uptime.get(id)!,
    ...(offline && { periodUptime: timeUptimePercent({ from: Math.max(start.getTime(), offline.created), to: now.getTime() }, offline.offline) }),
    responseTimes: {
      avg: totals.rtCount > 0 ? Math.round(totals.rtSum / totals.rtCount) : null,
      min: totals.rtMin,
      max: totals.rtMax,
      p95: totals.p95,
    },
    incidents,
    checks: { total: totals.checks, successful: totals.successes },
    series: offline ? withTimeUptime(series, query, offline, now) : series,
    noData: { totalSeconds: secondsWithin(spans, start, now), spans },
    now,
  };
}

/** Where the series starts: the start of the bucket holding the period's start (a point per check starts at the period's). */
const seriesStart = (query: StatsQuery, start: Date): Date =>
  query.granularity === PER_CHECK ? start : floorTo(start, STATS_GRANULARITIES[query.granularity]);

/**
 * A heartbeat's series with time-based uptime: a bucket's is the share of it (from the monitor's
 * creation, up to now) not offline, null before the monitor existed; a point (granularity
 * `check`, one per ping or missed deadline) is 100 when the monitor was not offline at that
 * instant, 0 when it was, null in maintenance as for any point (docs/statistics.md).
 */
function withTimeUptime(series: SeriesBucket[], query: StatsQuery, { created, offline }: HeartbeatOffline, now: Date): SeriesBucket[] {
  const end = now.getTime();
  return series.map((b) => {
    const t = b.timestamp.getTime();
    if (query.granularity === PER_CHECK) return { ...b, timeUptime: b.maintenance ? null : offlineAt(t, offline) ? 0 : 100 };
    const step = STATS_GRANULARITIES[query.granularity];
    return { ...b, timeUptime: timeUptimePercent({ from: Math.max(t, created), to: Math.min(t + step, end) }, offline) };
  });
}

/** Uptime of a series bucket: a heartbeat's time-based one, else successes over checks (null when nothing was checked in it). */
export const bucketUptime = (b: SeriesBucket): number | null => (b.timeUptime !== undefined ? b.timeUptime : uptimePercent(b.successes, b.checks));
