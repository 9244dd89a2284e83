import type { Schema } from '@uptime/client';

/** "packet loss 0 %, round trips 0.048 / 0.066 / 0.085 ms (min / avg / max)": a ping check's figures (docs/monitors.md, "ICMP ping"). */
export function pingText(p: Schema<'PingFigures'>): string {
  const loss = `packet loss ${p.packet_loss} %`;
  if (p.rtt_min === null || p.rtt_avg === null || p.rtt_max === null) return loss;
  return `${loss}, round trips ${p.rtt_min} / ${p.rtt_avg} / ${p.rtt_max} ms (min / avg / max)`;
}
