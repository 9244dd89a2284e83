import type { DataSource } from '@uptime/db';
import type { CheckResultView } from './check-results.repository';
import { BEAD_DNS_ANSWERS } from '@uptime/queues';

/**
 * One of a monitor's latest checks, as a bead shows it (docs/web.md, "Beads"): a recorded check's
 * first fields, and its type's figure: a ping's packet loss, a dns check's first answer values.
 */
export type RecentCheckView = Pick<CheckResultView, 'checkedAt' | 'ok' | 'statusCode' | 'responseTime' | 'error' | 'maintenance' | 'packetLoss' | 'dnsAnswers'>;

export interface MonitorRecentChecks {
  monitorId: number;
  /** Newest first. */
  checks: RecentCheckView[];
}

interface Row {
  monitor_id: number;
  checked_at: Date | null;
  ok: boolean | null;
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  maintenance: boolean | null;
  packet_loss: number | null;
  dns_answers: string[] | null;
}

/** $1 the organization, $2 the monitor ids, $3 the checks per monitor (exported for its plan's test). */
export const RECENT_CHECKS_SQL = `
  SELECT m.id AS monitor_id, r.checked_at, r.ok, r.status_code, r.response_time, r.error, r.maintenance, r.packet_loss,
         r.dns_answers[1:${BEAD_DNS_ANSWERS}] AS dns_answers
    FROM monitors m
    LEFT JOIN LATERAL (
      SELECT scheduled_at, scheduled_at + start_lag_ms * interval '1 millisecond' AS checked_at,
             ok, status_code, response_time, error, maintenance, packet_loss, dns_answers
        FROM check_results c
       WHERE c.monitor_id = m.id
       ORDER BY c.scheduled_at DESC
       LIMIT $3
    ) r ON true
   WHERE m.organization_id = $1 AND m.id = ANY($2::int[])
   ORDER BY m.id, r.scheduled_at DESC`;

/**
 * The latest `limit` checks of each of the organization's monitors among `ids`, in one statement:
 * for each monitor (found through the organization, so another's ids yield nothing), a LATERAL
 * read of check_results' (monitor_id, scheduled_at) key backwards, `limit` rows deep, merged over
 * the daily partitions (as historyRows reads one monitor). A monitor without checks is answered
 * with none; ids the organization does not have are left out.
 */
export async function recentCheckRows(ds: DataSource, organizationId: number, ids: number[], limit: number): Promise<MonitorRecentChecks[]> {
  const rows: Row[] = await ds.query(RECENT_CHECKS_SQL, [organizationId, ids, limit]);
  const byMonitor = new Map<number, RecentCheckView[]>();
  for (const r of rows) {
    const checks = byMonitor.get(r.monitor_id) ?? [];
    byMonitor.set(r.monitor_id, checks);
    if (r.checked_at === null) continue;
    checks.push({
      checkedAt: r.checked_at,
      ok: r.ok === true,
      statusCode: r.status_code,
      responseTime: r.response_time,
      error: r.error,
      maintenance: r.maintenance === true,
      packetLoss: r.packet_loss,
      dnsAnswers: r.dns_answers,
    });
  }
  return [...byMonitor].map(([monitorId, checks]) => ({ monitorId, checks }));
}
