/** The figures of one ping check (docs/monitors.md, "ICMP ping"). */
export interface PingFigures {
  /** Echo requests sent and answered. */
  sent: number;
  received: number;
  /** Percent of the requests left unanswered, 0 to 100 (two decimals). */
  packetLoss: number;
  /** Round trips of the answers in milliseconds (three decimals, as ping prints them); null when none came back. */
  rttMin: number | null;
  rttAvg: number | null;
  rttMax: number | null;
}

const SUMMARY = /(\d+) packets transmitted, (\d+) received/;
const ROUND_TRIPS = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\/[\d.]+ ms/;

/**
 * The figures in the summary iputils `ping -n` prints in the C locale:
 * `3 packets transmitted, 2 received, +1 errors, 33.3333% packet loss, time 2003ms` and
 * `rtt min/avg/max/mdev = 0.048/0.066/0.085/0.018 ms`; null when there is no summary (ping
 * stopped before sending). The loss is computed from the counts, not read rounded.
 */
export function parsePingOutput(stdout: string): PingFigures | null {
  const summary = SUMMARY.exec(stdout);
  if (!summary) return null;
  const sent = Number(summary[1]);
  const received = Number(summary[2]);
  if (sent === 0) return null;
  const rtt = ROUND_TRIPS.exec(stdout);
  const at = (i: number): number | null => (rtt && received > 0 ? Number(rtt[i]) : null);
  return { sent, received, packetLoss: packetLossOf(sent, received), rttMin: at(1), rttAvg: at(2), rttMax: at(3) };
}

/** The percent of `sent` requests left unanswered, to two decimals. */
export function packetLossOf(sent: number, received: number): number {
  return Math.round(((sent - received) / sent) * 10_000) / 100;
}
