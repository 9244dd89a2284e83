import { toDnsAnswerResponse } from '../monitors/test-result.presenter';
import type { CheckResultView } from './check-results.repository';
import type { NoDataSpanView } from './no-data.repository';
import type { MonitorRecentChecks } from './recent-checks.repository';

/** A check as the API shows it (docs/monitors.md); `location` is null for a check made by the worker itself. */
export function toCheckResultResponse(r: CheckResultView) {
  return {
    id: Number(r.id),
    checked_at: r.checkedAt.toISOString(),
    status: r.ok ? ('up' as const) : ('down' as const),
    status_code: r.statusCode,
    response_time: r.responseTime,
    error: r.error,
    maintenance: r.maintenance,
    location: r.location,
    timings: { dns: r.dnsMs, connect: r.connectMs, tls: r.tlsMs, first_byte: r.firstByteMs, total: r.responseTime },
    ping: r.packetLoss === null ? null : { packet_loss: r.packetLoss, rtt_min: r.rttMinMs, rtt_avg: r.rttAvgMs, rtt_max: r.rttMaxMs },
    locations: r.locations ?? [],
    dns: r.dnsAnswers === null ? null : toDnsAnswerResponse({ responseCode: r.dnsResponseCode, values: r.dnsAnswers, minTtl: r.dnsMinTtl }),
  };
}

/** A span as the API shows it; `to` null while it goes on, `duration` in seconds up to `now`. */
export function toNoDataSpanResponse(s: NoDataSpanView, now: Date) {
  return {
    from: s.startedAt.toISOString(),
    to: s.endedAt?.toISOString() ?? null,
    duration: Math.max(0, Math.round(((s.endedAt ?? now).getTime() - s.startedAt.getTime()) / 1000)),
  };
}

/** `data` of GET /monitors/recent-checks: per monitor, its latest checks newest first (docs/web.md, "Beads"). */
export function toRecentChecksResponse(list: MonitorRecentChecks[]) {
  return list.map((m) => ({
    monitor_id: m.monitorId,
    checks: m.checks.map((c) => ({
      checked_at: c.checkedAt.toISOString(),
      status: c.ok ? ('up' as const) : ('down' as const),
      status_code: c.statusCode,
      response_time: c.responseTime,
      error: c.error,
      maintenance: c.maintenance,
      packet_loss: c.packetLoss,
      dns_answers: c.dnsAnswers,
    })),
  }));
}
