import { ValidationError } from '@uptime/errors';
import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS } from './time-buckets';

export const STATS_PERIODS = {
  '1h': HOUR_MS,
  '3h': 3 * HOUR_MS,
  '6h': 6 * HOUR_MS,
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
} as const;
/** The bucket sizes of the rollup tables a series can be read from. */
export const STATS_GRANULARITIES = { '5m': FIVE_MINUTES_MS, '1h': HOUR_MS, '1d': DAY_MS } as const;
/** A series of the raw checks themselves, a point per check (docs/statistics.md). */
export const PER_CHECK = 'check';
export const STATS_GRANULARITY_NAMES = [PER_CHECK, ...(Object.keys(STATS_GRANULARITIES) as (keyof typeof STATS_GRANULARITIES)[])] as const;
export type StatsPeriod = keyof typeof STATS_PERIODS;
export type BucketGranularity = keyof typeof STATS_GRANULARITIES;
export type StatsGranularity = BucketGranularity | typeof PER_CHECK;

/**
 * The longest period answered check by check: 6 hours at the 30 s floor of the check interval is
 * 720 checks, and a day would be 2,880.
 */
export const PER_CHECK_MAX_PERIOD_MS = 6 * HOUR_MS;

/** Default step per period: each check up to 6 hours, then a few hundred points at most. */
const DEFAULT_GRANULARITY: Record<StatsPeriod, StatsGranularity> = {
  '1h': PER_CHECK,
  '3h': PER_CHECK,
  '6h': PER_CHECK,
  '24h': '5m',
  '7d': '1h',
  '30d': '1h',
  '90d': '1d',
};

/**
 * Longest series answered: a week at 5 minutes (2,017 buckets) and 90 days hourly (2,161) fit; a
 * per-check series keeps the newest this many checks (more only with an interval under 10 s).
 */
export const MAX_SERIES_BUCKETS = 2200;

export interface StatsQuery {
  period: StatsPeriod;
  granularity: StatsGranularity;
}

function pick<T extends string>(query: Record<string, unknown>, name: string, allowed: readonly T[], details: Record<string, string[]>): T | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) return raw as T;
  details[name] = [`${name} must be one of ${allowed.join(', ')}`];
  return undefined;
}

/** `period` and `granularity` of GET /monitors/{id}/stats; a series too long to be useful is refused. */
export function parseStatsQuery(query: Record<string, unknown>): StatsQuery {
  const details: Record<string, string[]> = {};
  const period = pick(query, 'period', Object.keys(STATS_PERIODS) as StatsPeriod[], details) ?? '24h';
  const granularity = pick(query, 'granularity', STATS_GRANULARITY_NAMES, details) ?? DEFAULT_GRANULARITY[period];
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid query: ${Object.keys(details).join(', ')}`, details);
  if (granularity === PER_CHECK) {
    if (STATS_PERIODS[period] > PER_CHECK_MAX_PERIOD_MS) {
      throw new ValidationError(`granularity check is answered for periods up to 6h, not ${period}; use 5m, 1h or 1d`, {
        granularity: [`check is answered for periods of 1h, 3h and 6h only; use 5m, 1h or 1d over ${period}`],
      });
    }
    return { period, granularity };
  }
  const buckets = STATS_PERIODS[period] / STATS_GRANULARITIES[granularity] + 1;
  if (buckets > MAX_SERIES_BUCKETS) {
    throw new ValidationError(
      `granularity ${granularity} over ${period} would give ${buckets} buckets; at most ${MAX_SERIES_BUCKETS} are answered, use a coarser granularity`,
      { granularity: [`${granularity} is too fine for period ${period} (${buckets} buckets, at most ${MAX_SERIES_BUCKETS}); use 1h or 1d`] },
    );
  }
  return { period, granularity };
}
