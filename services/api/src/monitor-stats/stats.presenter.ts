import { toNoDataSpanResponse } from '../check-results/check-result.presenter';
import { bucketUptime, type MonitorStats } from './stats.service';

/** `data` of GET /monitors/{id}/stats: uptime, response times, incidents and checks over the period, plus `series` (docs/statistics.md). */
export function toStatsResponse(s: MonitorStats) {
  return {
    period: s.period,
    granularity: s.granularity,
    uptime: s.uptime,
    response_times: s.responseTimes,
    incidents: { count: s.incidents.count, total_downtime: s.incidents.totalDowntime },
    checks: { total: s.checks.total, successful: s.checks.successful, failed: s.checks.total - s.checks.successful },
    // A heartbeat only (docs/statistics.md): other monitors' answers keep their shape.
    ...(s.periodUptime !== undefined && { period_uptime: s.periodUptime }),
    series: s.series.map((b) => ({
      timestamp: b.timestamp.toISOString(),
      uptime: bucketUptime(b),
      avg_response_time: b.rtCount > 0 ? Math.round(b.rtSum / b.rtCount) : null,
      checks: b.checks,
      maintenance: b.maintenance,
    })),
    no_data: { total_seconds: s.noData.totalSeconds, spans: s.noData.spans.map((span) => toNoDataSpanResponse(span, s.now)) },
  };
}
