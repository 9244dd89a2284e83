import type { DnsResult } from '../dns/result';
import type { PingFigures } from '../ping/ping-output';

/** The outcome of one check: the result shape of every type (re-exported by check-config.ts). */
export interface ProbeResult {
  ok: boolean;
  statusCode: number | null;
  /** Milliseconds of the last attempt; null when no response arrived. */
  responseTime: number | null;
  /** Why the check failed, for people; null on success. */
  error: string | null;
  /** When the (first) attempt started. */
  checkedAt: Date;
  attempts: number;
  /** Where the last attempt's time went; absent for a result that came from an agent. */
  timings?: CheckTimings;
  /** notAfter of the https target's leaf certificate; null or absent when none was received. */
  certificateExpiresAt?: Date | null;
  /** A dns check's response code, answer values and lowest TTL; absent for other types. */
  dns?: DnsResult;
  /** A ping check's loss and round trips; absent for other types (ping/ping-output.ts). */
  ping?: PingFigures | null;
}

/**
 * Phases of the last attempt, in whole milliseconds, as got measures them (the last request when
 * redirects were followed); null for a phase that did not happen or was not reached: no TLS for
 * http, nothing after a refused connection (an IP-literal host has a DNS phase of about 0). The total is `responseTime`.
 */
export interface CheckTimings {
  dns: number | null;
  connect: number | null;
  tls: number | null;
  /** From the request being sent to the first byte of the response (time to first byte). */
  firstByte: number | null;
}
