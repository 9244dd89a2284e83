import type { Logger } from '@uptime/logger';
import type { ReadinessDetails, ServiceMetrics } from '@uptime/observability';
import { checkIcmpAccess, unavailablePinger, type Pinger } from '@uptime/probe';

/** Logged once at start by a worker that cannot send ICMP (docs/operations.md, "ICMP ping"). */
export const ICMP_UNAVAILABLE_MESSAGE = 'ICMP unavailable: this worker cannot send ping checks; it gives them back to other workers and never records their targets as down';

/**
 * Finds out once, at start, whether this worker can send ICMP echo requests as it runs (no root,
 * no CAP_NET_RAW: an ICMP datagram socket, which net.ipv4.ping_group_range allows), and says so:
 * a log line when it cannot, `uptime_icmp_available` and the `icmp` detail of `/readyz`. Answers
 * the Pinger its ping checks use: one that fails each on our side, without running `ping`, when
 * it cannot (the check is given back, never recorded as down).
 */
export async function announceIcmpAccess(deps: { pinger: Pinger; logger: Logger; metrics: ServiceMetrics; readiness?: ReadinessDetails }): Promise<Pinger> {
  const access = await checkIcmpAccess(deps.pinger);
  deps.metrics.icmpAvailable.set(access.available ? 1 : 0);
  deps.readiness?.detail('icmp', access.available ? { available: true } : { available: false, reason: access.reason });
  if (access.available) return deps.pinger;
  deps.logger.warn({ reason: access.reason }, ICMP_UNAVAILABLE_MESSAGE);
  return unavailablePinger(access.reason);
}
