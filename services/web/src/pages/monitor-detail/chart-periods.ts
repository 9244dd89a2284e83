import type { Schema } from '@uptime/client';

/**
 * The response-time chart's periods and granularities (docs/web.md, "The response-time chart"):
 * which the API answers, which a period opens at. Free of React and of the API client.
 */
export type Period = Schema<'MonitorStats'>['period'];
export type Granularity = Schema<'MonitorStats'>['granularity'];

export const PERIODS: Period[] = ['1h', '3h', '6h', '24h', '7d', '30d', '90d'];
/** `check`: a point per check, which the API answers over 6 hours at most (docs/statistics.md). */
export const GRANULARITIES: Granularity[] = ['check', '5m', '1h', '1d'];
export const GRANULARITY_LABELS: Record<Granularity, string> = { check: 'per check', '5m': '5m', '1h': '1h', '1d': '1d' };
const PERIOD_HOURS: Record<Period, number> = { '1h': 1, '3h': 3, '6h': 6, '24h': 24, '7d': 168, '30d': 720, '90d': 2160 };
export const periodMs = (p: Period): number => PERIOD_HOURS[p] * 3_600_000;
const STEP_HOURS: Record<Exclude<Granularity, 'check'>, number> = { '5m': 1 / 12, '1h': 1, '1d': 24 };
/** The bucket of a granularity in milliseconds; null for a point per check. */
export const stepMs = (g: Granularity): number | null => (g === 'check' ? null : STEP_HOURS[g] * 3_600_000);
/** The API answers at most this many buckets (services/api/src/monitor-stats/stats.params.ts), and per check up to 6 h. */
const MAX_BUCKETS = 2200;
const PER_CHECK_MAX_HOURS = 6;
export const granularityFits = (p: Period, g: Granularity): boolean =>
  g === 'check'
    ? PERIOD_HOURS[p] <= PER_CHECK_MAX_HOURS
    : PERIOD_HOURS[p] / STEP_HOURS[g] + 1 <= MAX_BUCKETS && PERIOD_HOURS[p] / STEP_HOURS[g] >= 1;
/** The API's own granularity for each period (services/api/src/monitor-stats/stats.params.ts). */
const DEFAULT_GRANULARITY: Record<Period, Granularity> = {
  '1h': 'check',
  '3h': 'check',
  '6h': 'check',
  '24h': '5m',
  '7d': '1h',
  '30d': '1h',
  '90d': '1d',
};
/**
 * The granularity a newly chosen period is shown at: each check over a short period (the point of
 * choosing one); else the bucket shown so far if the API answers it, else the period's default.
 */
export const granularityFor = (p: Period, current: Granularity): Granularity =>
  granularityFits(p, 'check') ? 'check' : current !== 'check' && granularityFits(p, current) ? current : DEFAULT_GRANULARITY[p];

/**
 * The period a monitor's chart opens at: the shortest that spans its whole life, up to 24 h, so a
 * monitor a few minutes old shows its checks across 1 h rather than as one dot at the edge of a day.
 */
export function initialPeriod(createdAt: string, now: number = Date.now()): Period {
  const age = now - Date.parse(createdAt);
  return PERIODS.find((p) => periodMs(p) >= age && periodMs(p) <= periodMs('24h')) ?? '24h';
}
