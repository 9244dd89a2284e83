import type { PingBackendMode } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import type { ReadinessDetails, ServiceMetrics } from '@uptime/observability';
import { checkIcmpAccess, IcmpSockets, openIcmpSockets, unavailablePinger, type PingBackend, type Pinger } from '@uptime/probe';

/** Logged once at start by a worker that cannot send ICMP (docs/operations.md, "ICMP ping"). */
export const ICMP_UNAVAILABLE_MESSAGE = 'ICMP unavailable: this worker cannot send ping checks; it gives them back to other workers and never records their targets as down';

/** How this worker sends ping checks: its own ICMP sockets, a `ping` process per check, or not at all. */
export type PingBackendName = 'sockets' | 'iputils' | 'none';

export interface IcmpBackendChoice {
  name: PingBackendName;
  /** What its ping checks use: one that fails each on our side, without sending anything, when `none`. */
  backend: PingBackend;
  /** Why the in-process sockets were not chosen, when they were tried first (PING_BACKEND=auto). */
  socketsRefused: string | null;
  /** Closes the sockets, if any (after the last check). */
  close(): void;
}

/**
 * Finds out once, at start, how this worker can send ICMP echo requests as it runs (no root, no
 * CAP_NET_RAW: an ICMP datagram socket, which net.ipv4.ping_group_range allows): first, unless
 * PING_BACKEND says otherwise, through ICMP sockets in its own process (the probe's native
 * addon), else through iputils `ping`, else not at all; each candidate must get an answer from
 * 127.0.0.1. Says which in `uptime_icmp_available{backend}` and the `icmp` detail of `/readyz`,
 * and logs when it cannot: a worker without ICMP gives its ping checks back, never recording
 * their targets as down.
 */
export async function announceIcmpAccess(deps: {
  mode: PingBackendMode;
  pinger: Pinger;
  logger: Logger;
  metrics: ServiceMetrics;
  readiness?: ReadinessDetails;
  /** The in-process sockets to try (default: the addon's, when it was built and loads). */
  openSockets?: typeof openIcmpSockets;
}): Promise<IcmpBackendChoice> {
  let socketsRefused: string | null = null;
  let reason = 'PING_BACKEND allows no backend';
  if (deps.mode !== 'iputils') {
    const opened = (deps.openSockets ?? openIcmpSockets)();
    const access = opened.sockets === null ? { available: false as const, reason: opened.reason } : await checkIcmpAccess(opened.sockets);
    if (access.available && opened.sockets !== null) return announce(deps, 'sockets', opened.sockets, null);
    opened.sockets?.close();
    if (!access.available) socketsRefused = reason = access.reason;
  }
  if (deps.mode !== 'sockets') {
    const access = await checkIcmpAccess(deps.pinger);
    if (access.available) return announce(deps, 'iputils', deps.pinger, socketsRefused);
    reason = access.reason;
  }
  deps.metrics.icmpAvailable.set({ backend: 'none' }, 0);
  deps.readiness?.detail('icmp', { available: false, reason });
  deps.logger.warn({ reason, ...(socketsRefused !== null && deps.mode === 'auto' ? { sockets_refused: socketsRefused } : {}) }, ICMP_UNAVAILABLE_MESSAGE);
  return { name: 'none', backend: unavailablePinger(reason), socketsRefused, close: () => undefined };
}

function announce(deps: { metrics: ServiceMetrics; readiness?: ReadinessDetails }, name: 'sockets' | 'iputils', backend: PingBackend, socketsRefused: string | null): IcmpBackendChoice {
  deps.metrics.icmpAvailable.set({ backend: name }, 1);
  const socket = backend instanceof IcmpSockets ? { socket: backend.kindOf(4) } : {};
  deps.readiness?.detail('icmp', { available: true, backend: name, ...socket });
  return { name, backend, socketsRefused, close: () => (backend instanceof IcmpSockets ? backend.close() : undefined) };
}
