import { DAY_MS, ensureResultPartitions, LATENCY_BUCKET_BOUNDS_MS, LATENCY_BUCKET_COUNT, type DataSource } from '@uptime/db';

/** `ARRAY[count(*) FILTER (WHERE cell = 0), ...]`: the latency histogram of a group of results, as the check-worker keeps it. */
const HIST_SQL = `ARRAY[${Array.from(
  { length: LATENCY_BUCKET_COUNT },
  (_v, i) => `count(*) FILTER (WHERE response_time IS NOT NULL AND width_bucket(response_time - 1, '{${LATENCY_BUCKET_BOUNDS_MS.join(',')}}'::int[]) = ${i})::int`,
).join(', ')}]`;

/**
 * The main monitor: one result a minute for `days` days (ok except every 97th minute and a
 * 40-minute outage a week for the last five weeks; latency 40..400 ms with a slow tail), and its
 * rollups aggregated from those rows in SQL, so they are exactly what the check-worker would
 * have written. 5-minute rollups only for the 35 days the retention job keeps.
 */
export async function seedMainMonitor(ds: DataSource, monitorId: number, now: Date, days: number): Promise<number> {
  const start = new Date(Math.floor((now.getTime() - days * DAY_MS) / 60_000) * 60_000);
  // Each day in its own partition, as the maintenance job keeps them in production.
  await ensureResultPartitions(ds, start, now);
  await ds.query(
    `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error)
     SELECT $1, t, 150, NOT failed, CASE WHEN failed THEN 503 ELSE 200 END,
            CASE WHEN failed THEN NULL WHEN i % 50 = 0 THEN 1200 + i % 700 ELSE 40 + (i * 37) % 360 END,
            CASE WHEN failed THEN 'Unexpected status 503' END
       FROM generate_series(0, $3::int - 1) AS i,
            LATERAL (SELECT $2::timestamptz + i * interval '1 minute' AS t) AS at,
            LATERAL (SELECT i % 97 = 0 OR (i % 10080 BETWEEN 600 AND 639 AND i > $3::int - 50400) AS failed) AS f`,
    [monitorId, start, days * 1440],
  );
  for (const [table, step, since] of [
    ['check_rollups_5m', '5 minutes', new Date(now.getTime() - 35 * DAY_MS)],
    ['check_rollups_1h', '1 hour', start],
    ['check_rollups_1d', '1 day', start],
  ] as const) {
    await ds.query(
      `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT monitor_id, date_bin('${step}', scheduled_at + start_lag_ms * interval '1 millisecond', 'epoch'), count(*), count(*) FILTER (WHERE ok), count(response_time),
              coalesce(sum(response_time), 0), min(response_time), max(response_time), ${HIST_SQL}
         FROM check_results WHERE monitor_id = $1 AND scheduled_at >= date_bin('${step}', $2::timestamptz, 'epoch')
        GROUP BY 1, 2`,
      [monitorId, since],
    );
  }
  // Incidents matching the weekly outages.
  const total = days * 1440;
  for (let i = 600; i + 40 <= total; i += 10080) {
    if (i <= total - 50400) continue;
    const startedAt = new Date(start.getTime() + i * 60_000);
    await ds.query(
      `INSERT INTO incidents (monitor_id, started_at, resolved_at, duration, status_code, error) VALUES ($1, $2, $3, 2400, 503, 'Unexpected status 503')`,
      [monitorId, startedAt, new Date(startedAt.getTime() + 40 * 60_000)],
    );
  }
  return days * 1440;
}

/**
 * Other monitors of the same user: rollups only (the dashboard and lists read nothing else), one
 * check a minute for `days` days in hourly and daily rollups, 5-minute rollups for the last two
 * days (all that the dashboard reads of them; more would only lengthen the seed).
 */
export async function seedOtherMonitors(ds: DataSource, monitorIds: number[], now: Date, days: number): Promise<void> {
  // Latency cells 2, 4 and 6 (26..50, 76..100, 151..200 ms) in a 8:3:1 ratio.
  const hist = (a: number, b: number, c: number): string =>
    `'{${Array.from({ length: LATENCY_BUCKET_COUNT }, (_v, i) => (i === 2 ? a : i === 4 ? b : i === 6 ? c : 0)).join(',')}}'`;
  const rows: [string, string, number, number, Date, string][] = [
    ['check_rollups_5m', '5 minutes', 5, 300_000, new Date(now.getTime() - 2 * DAY_MS), hist(3, 1, 1)],
    ['check_rollups_1h', '1 hour', 60, 3_600_000, new Date(now.getTime() - days * DAY_MS), hist(40, 15, 5)],
    ['check_rollups_1d', '1 day', 1440, DAY_MS, new Date(now.getTime() - days * DAY_MS), hist(960, 360, 120)],
  ];
  for (const [table, step, checks, stepMs, since, cells] of rows) {
    await ds.query(
      `INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       SELECT m, b, $3::int, $3::int - CASE WHEN (m + extract(epoch FROM b)::bigint / $5::int) % 13 = 0 THEN ceil($3::int / 20.0)::int ELSE 0 END,
              $3::int, $3::int * 70, 30, 200, ${cells}::int[]
         FROM unnest($1::int[]) AS m,
              generate_series(date_bin('${step}', $2::timestamptz, 'epoch'), $4::timestamptz, interval '${step}') AS b`,
      [monitorIds, since, checks, now, stepMs / 1000],
    );
  }
}
