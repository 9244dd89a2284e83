import { DAY_MS, HOUR_MS, type DataSource } from '@uptime/db';

/**
 * Rollups as 50 monitors checked every minute would have left: 90 daily rows each, hourly rows
 * for the last 8 days and 5-minute rows for the last day (what the 24 h and 90 d figures read),
 * with a bad day here and there. One statement per table.
 */
export async function seedRollups(ds: DataSource, monitorIds: number[], now: Date): Promise<void> {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  const five = Math.floor(now.getTime() / 300_000) * 300_000;
  const insert = (table: string, from: number, to: number, stepMs: number, checks: number): Promise<unknown> =>
    ds.query(
      `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT m.id, b, $5::int, $5::int - CASE WHEN (m.id * 7 + (extract(epoch FROM b) / 3600)::bigint) % 23 = 0 THEN $5::int / 20 ELSE 0 END,
              $5::int, $5::int * 120, 80, 400, '{}'
         FROM unnest($1::int[]) AS m(id), generate_series($2::timestamptz, $3::timestamptz, make_interval(secs => $4::double precision / 1000)) AS b`,
      [monitorIds, new Date(from), new Date(to), stepMs, checks],
    );
  await insert('check_rollups_1d', today - 89 * DAY_MS, today, DAY_MS, 1440);
  await insert('check_rollups_1h', hour - 8 * 24 * HOUR_MS, hour, HOUR_MS, 60);
  await insert('check_rollups_5m', five - 24 * HOUR_MS, five, 300_000, 5);
}
