import type { DataSource } from '@uptime/db';

export interface Uptime {
  '24h': number | null;
  '7d': number | null;
  '30d': number | null;
}

export const EMPTY_UPTIME: Uptime = { '24h': null, '7d': null, '30d': null };

/** successes / checks × 100 with two decimals; null without checks (contract §5). */
export function uptimePercent(successes: number, checks: number): number | null {
  return checks > 0 ? Math.round((successes / checks) * 10000) / 100 : null;
}

/**
 * Uptime over 24 h, 7 d and 30 d for many monitors at once, read from the rollups (5-minute
 * buckets for a day, hourly for a week, daily for a month): a few hundred small rows per
 * monitor whatever the number of raw results.
 */
export async function uptimeByMonitor(ds: DataSource, monitorIds: number[]): Promise<Map<number, Uptime>> {
  const result = new Map<number, Uptime>(monitorIds.map((id) => [id, { ...EMPTY_UPTIME }]));
  if (monitorIds.length === 0) return result;
  const rows: { monitor_id: number; window: keyof Uptime; checks: string; successes: string }[] = await ds.query(
    `SELECT monitor_id, '24h' AS window, sum(checks) AS checks, sum(successes) AS successes
       FROM check_rollups_5m WHERE monitor_id = ANY($1) AND bucket >= now() - interval '24 hours' GROUP BY monitor_id
     UNION ALL
     SELECT monitor_id, '7d', sum(checks), sum(successes)
       FROM check_rollups_1h WHERE monitor_id = ANY($1) AND bucket >= now() - interval '7 days' GROUP BY monitor_id
     UNION ALL
     SELECT monitor_id, '30d', sum(checks), sum(successes)
       FROM check_rollups_1d WHERE monitor_id = ANY($1) AND bucket >= date_trunc('day', now() - interval '30 days') GROUP BY monitor_id`,
    [monitorIds],
  );
  for (const row of rows) {
    const uptime = result.get(row.monitor_id);
    if (uptime) uptime[row.window] = uptimePercent(Number(row.successes), Number(row.checks));
  }
  return result;
}
