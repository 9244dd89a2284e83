import type { DnsResult, ProbeResult } from '@uptime/probe';

/** The answer of POST /monitors/{id}/test: one dry-run check (docs/monitors.md, Other operations). */
export function toTestResultResponse(r: ProbeResult) {
  return {
    status: r.ok ? ('up' as const) : ('down' as const),
    response_time: r.responseTime,
    status_code: r.statusCode,
    checked_at: r.checkedAt.toISOString(),
    error: r.error,
    timings: {
      dns: r.timings?.dns ?? null,
      connect: r.timings?.connect ?? null,
      tls: r.timings?.tls ?? null,
      first_byte: r.timings?.firstByte ?? null,
      total: r.responseTime,
    },
    dns: r.dns ? toDnsAnswerResponse(r.dns) : null,
    ping: r.ping ? { packet_loss: r.ping.packetLoss, rtt_min: r.ping.rttMin, rtt_avg: r.ping.rttAvg, rtt_max: r.ping.rttMax } : null,
  };
}

/** A dns check's answer as the API shows it, on a test result and a recorded check alike (docs/monitors.md, "DNS records"). */
export function toDnsAnswerResponse(d: DnsResult) {
  return { response_code: d.responseCode, answers: d.values, min_ttl: d.minTtl };
}
