import type { DataSource } from '@uptime/db';
import { DAY_MS, FIVE_MINUTES_MS, HOUR_MS, ceilTo, floorTo } from './time-buckets';

/** checks, successes, rt_count, rt_sum */
export type Cells = [number, number, number, number];

/**
 * The parts of a monitor's uptime windows that are settled once hour `H` has begun (see
 * uptime.repository.ts): i24 = hourly buckets [H−23h, H−1h); e24 = the 5-minute buckets of
 * [H−24h, H−23h) by slot; e7 = the hourly bucket H−7d; i7 = hourly buckets [H−7d+1h, H−1h);
 * i30 = daily buckets [D−30d, D−1d) with D the day of H.
 */
export interface UptimeBase {
  i24: Cells;
  e24: Record<string, Cells>;
  e7: [number, number];
  i7: [number, number];
  i30: [number, number];
}

const at = (ms: number): Date => new Date(ms);

/** The parameters of the query below, for hour `H` (see UptimeBase). */
function uptimeBaseParams(monitorIds: number[], hour: Date): unknown[] {
  const H = hour.getTime();
  const D = floorTo(H, DAY_MS).getTime();
  // [H−7d+1h, H−1h) through whole days where it can: hourly up to the first midnight, daily
  // between midnights, hourly after the last one.
  const i7Start = H - 7 * DAY_MS + HOUR_MS;
  const i7End = H - HOUR_MS;
  const i7FirstDay = ceilTo(i7Start, DAY_MS).getTime();
  const i7LastDay = floorTo(i7End, DAY_MS).getTime();
  return [
    monitorIds,
    H - 24 * HOUR_MS,
    at(H - 24 * HOUR_MS),
    at(H - 23 * HOUR_MS),
    at(H - HOUR_MS),
    at(H - 7 * DAY_MS),
    at(i7Start),
    at(Math.min(i7FirstDay, i7End)),
    at(Math.max(i7LastDay, i7FirstDay)),
    at(D - 30 * DAY_MS),
    at(D - DAY_MS),
    FIVE_MINUTES_MS,
  ];
}

type PartRow = {
  monitor_id: number;
  part: keyof UptimeBase;
  slot: number | null;
  checks: string;
  successes: string;
  rt_count: string;
  rt_sum: string;
};

/** Each monitor's parts from the query's rows (a monitor without rows has zeros). */
function foldBases(monitorIds: number[], rows: PartRow[]): Map<number, UptimeBase> {
  const bases = new Map<number, UptimeBase>(
    monitorIds.map((id) => [id, { i24: [0, 0, 0, 0], e24: {}, e7: [0, 0], i7: [0, 0], i30: [0, 0] }]),
  );
  for (const r of rows) {
    const base = bases.get(r.monitor_id)!;
    const cells: Cells = [Number(r.checks), Number(r.successes), Number(r.rt_count), Number(r.rt_sum)];
    if (r.part === 'e24') base.e24[String(r.slot)] = cells;
    else if (r.part === 'i24') base.i24 = cells;
    else if (r.part === 'e7') base.e7 = [cells[0], cells[1]];
    else if (r.part === 'i7') base.i7 = [base.i7[0] + cells[0], base.i7[1] + cells[1]];
    else base.i30 = [cells[0], cells[1]];
  }
  return bases;
}

/** Computes the settled parts for `monitorIds` at hour `hour` in one query. */
export async function computeUptimeBases(ds: DataSource, monitorIds: number[], hour: Date): Promise<Map<number, UptimeBase>> {
  const rows: PartRow[] = await ds.query(
    `SELECT monitor_id, part, slot, sum(checks) AS checks, sum(successes) AS successes, sum(rt_count) AS rt_count, sum(rt_sum) AS rt_sum
         FROM (
           SELECT monitor_id, 'e24' AS part, ((extract(epoch FROM bucket) * 1000 - $2::bigint) / $12)::int AS slot,
                  checks, successes, rt_count, rt_sum
             FROM check_rollups_5m WHERE monitor_id = ANY($1) AND bucket >= $3 AND bucket < $4
           UNION ALL
           SELECT monitor_id, 'i24', NULL, checks, successes, rt_count, rt_sum
             FROM check_rollups_1h WHERE monitor_id = ANY($1) AND bucket >= $4 AND bucket < $5
           UNION ALL
           SELECT monitor_id, 'e7', NULL, checks, successes, rt_count, rt_sum
             FROM check_rollups_1h WHERE monitor_id = ANY($1) AND bucket = $6
           UNION ALL
           SELECT monitor_id, 'i7', NULL, checks, successes, rt_count, rt_sum
             FROM check_rollups_1h WHERE monitor_id = ANY($1)
              AND ((bucket >= $7 AND bucket < $8) OR (bucket >= $9 AND bucket < $5))
           UNION ALL
           SELECT monitor_id, 'i7', NULL, checks, successes, rt_count, rt_sum
             FROM check_rollups_1d WHERE monitor_id = ANY($1) AND bucket >= $8 AND bucket < $9
           UNION ALL
           SELECT monitor_id, 'i30', NULL, checks, successes, rt_count, rt_sum
             FROM check_rollups_1d WHERE monitor_id = ANY($1) AND bucket >= $10 AND bucket < $11
         ) parts
        GROUP BY monitor_id, part, slot`,
    uptimeBaseParams(monitorIds, hour),
  );
  return foldBases(monitorIds, rows);
}
