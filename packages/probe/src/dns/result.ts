/** What a dns check learnt from its answer, recorded with its result (docs/monitors.md, "DNS records"). */
export interface DnsResult {
  /** The answer's response code (NOERROR, NXDOMAIN, SERVFAIL, REFUSED...); null when no answer came. */
  responseCode: string | null;
  /** The answer's values of the type asked for, normalised: at most 50, each at most 255 characters. */
  values: string[];
  /** The lowest TTL of the answer's records, in seconds; null without records. */
  minTtl: number | null;
}
