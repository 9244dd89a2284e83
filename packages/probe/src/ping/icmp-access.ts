import { IcmpUnavailableError, icmpUnavailableReason, type Pinger } from './pinger';

/** Whether this process can send ICMP echo requests, and why not. */
export type IcmpAccess = { available: true } | { available: false; reason: string };

/**
 * Pings 127.0.0.1 once, as the process will ping its targets (docs/operations.md, "ICMP ping"):
 * a worker that cannot says so at start instead of failing its ping checks one by one.
 */
export async function checkIcmpAccess(pinger: Pinger): Promise<IcmpAccess> {
  try {
    const run = await pinger(['-4', '-n', '-c', '1', '-W', '1', '127.0.0.1'], 5000);
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
