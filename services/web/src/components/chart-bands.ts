import type { Schema } from '@uptime/client';

type Series = Schema<'MonitorStats'>['series'];

/** A stretch of the chart to shade: when checks failed, or when they fell in a maintenance window. */
export interface Band {
  kind: 'down' | 'maintenance';
  /** Epoch milliseconds. */
  from: number;
  to: number;
  /** How much of it failed: 1 all, less for a bucket only partly down. */
  strength: number;
}

/**
 * The shaded stretches of a series (docs/web.md, "The response-time chart"): a bucket with a
 * failed check over its step (the darker the more of its checks failed); a failed check, or one
 * in a maintenance window, from itself to the next check (the last one up to `now`). Neighbours of
 * the same kind and strength are merged. Rollups leave maintenance checks out, so only a
 * per-check series has maintenance bands.
 */
export function chartBands(series: Series, stepMs: number | null, now: number): Band[] {
  const bands: Band[] = [];
  series.forEach((b, i) => {
    const from = Date.parse(b.timestamp);
    const next = series[i + 1];
    const to = stepMs !== null ? from + stepMs : next ? Date.parse(next.timestamp) : now;
    let band: Band | null = null;
    if (b.maintenance) band = { kind: 'maintenance', from, to, strength: 1 };
    else if (b.uptime !== null && b.uptime < 100) band = { kind: 'down', from, to, strength: b.uptime <= 0 ? 1 : 0.5 };
    if (!band) return;
    const last = bands[bands.length - 1];
    if (last && last.kind === band.kind && last.strength === band.strength && last.to >= band.from) last.to = Math.max(last.to, band.to);
    else bands.push(band);
  });
  return bands;
}

/**
 * What the chart shows in words, from the same series as the line: its accessible summary, and a
 * caption when there is no line to see. An offline monitor's failed checks have no response time,
 * yet they are checks: they are said, and shaded, never "no checks".
 */
export function describeSeries(series: Series): { summary: string; caption: string | null } {
  const checks = series.reduce((n, b) => n + b.checks, 0);
  const failed = series.reduce((n, b) => n + (b.uptime === null ? 0 : Math.round(b.checks * (1 - b.uptime / 100))), 0);
  const inMaintenance = series.filter((b) => b.maintenance).length;
  const timed = series.filter((b) => b.avg_response_time !== null).length;
  const parts = [`${checks} check${checks === 1 ? '' : 's'}`, `${failed} failed`];
  if (inMaintenance > 0) parts.push(`${inMaintenance} in maintenance`);
  const summary = parts.join(', ');
  if (checks === 0 && inMaintenance === 0) return { summary, caption: 'No checks in this period yet.' };
  if (timed === 0) return { summary, caption: `No response time to draw: ${summary}, none with a response time.` };
  return { summary, caption: null };
}
