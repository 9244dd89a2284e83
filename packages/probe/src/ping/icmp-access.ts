import { IcmpSockets } from './icmp-sockets';
import type { PingBackend } from './ping-backend';
import { IcmpUnavailableError, icmpUnavailableReason, type Pinger } from './pinger';

/** Whether this process can send ICMP echo requests, and why not. */
export type IcmpAccess = { available: true } | { available: false; reason: string };

/**
 * Pings 127.0.0.1 once, as the process will ping its targets (docs/operations.md, "ICMP ping"):
 * a worker that cannot says so at start instead of failing its ping checks one by one.
 */
export async function checkIcmpAccess(backend: PingBackend): Promise<IcmpAccess> {
  try {
    if (backend instanceof IcmpSockets) {
      const figures = await backend.ping('127.0.0.1', 4, 1, 1000, 1000);
      return figures.received > 0 ? { available: true } : { available: false, reason: 'an echo request to 127.0.0.1 through an ICMP socket got no answer' };
    }
    const run = await backend(['-4', '-n', '-c', '1', '-W', '1', '127.0.0.1'], 5000);
    const reason = icmpUnavailableReason(run);
    if (reason !== null) return { available: false, reason };
    if (run.exitCode !== 0) return { available: false, reason: run.stderr.trim() || `ping 127.0.0.1 got no answer (exit code ${run.exitCode ?? 'killed'})` };
    return { available: true };
  } catch (error) {
    return { available: false, reason: error instanceof IcmpUnavailableError ? error.reason : String(error) };
  }
}

/** The Pinger of a process that cannot send ICMP: every ping check fails on our side, without running ping. */
export function unavailablePinger(reason: string): Pinger {
  return () => Promise.reject(new IcmpUnavailableError(reason));
}
