import { MAX_START_LAG_MS, type DataSource } from '@uptime/db';
import type { PageRequest } from '../http/pagination';
import type { HistoryQuery } from './history.params';
import type { LocationResultItem } from './location-results.repository';

/** One recorded check as read for the API. */
export interface CheckResultView {
  id: string;
  checkedAt: Date;
  ok: boolean;
  statusCode: number | null;
  responseTime: number | null;
  error: string | null;
  /** Made during a maintenance window (docs/alert-rules.md). */
  maintenance: boolean;
  location: string | null;
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  firstByteMs: number | null;
  /** A dns check's response code, answer values and lowest TTL; dnsAnswers is null for other types' checks. */
  dnsResponseCode: string | null;
  dnsAnswers: string[] | null;
  dnsMinTtl: number | null;
  /** A ping check's figures (docs/monitors.md, "ICMP ping"); null for other types. */
  packetLoss: number | null;
  rttMinMs: number | null;
  rttAvgMs: number | null;
  rttMaxMs: number | null;
  /** Each location's result when the check also ran through agents (docs/agent-protocol.md); empty otherwise. */
  locations?: LocationResultItem[];
}

// A check's start is stored as a lag after its planned time (migration 1732270005000); a result
// row has no location of its own: each location's result is in check_location_results.
const CHECKED_AT = `(scheduled_at + start_lag_ms * interval '1 millisecond')`;
const SELECT_RESULT = `SELECT id::text AS id, ${CHECKED_AT} AS "checkedAt", ok, status_code AS "statusCode",
                              response_time AS "responseTime", error, maintenance, NULL::varchar AS location,
                              dns_ms AS "dnsMs", connect_ms AS "connectMs", tls_ms AS "tlsMs", first_byte_ms AS "firstByteMs",
                              dns_response_code AS "dnsResponseCode", dns_answers AS "dnsAnswers", dns_min_ttl AS "dnsMinTtl",
                              packet_loss AS "packetLoss", rtt_min_ms AS "rttMinMs", rtt_avg_ms AS "rttAvgMs", rtt_max_ms AS "rttMaxMs"
                         FROM check_results`;

/**
 * Checks of a monitor within [from, to] (by checked_at), newest first, at most `limit`, and how
 * many there are. Ordered by the planned time, unique per monitor: each daily partition's
 * (monitor_id, scheduled_at) index is read backwards and merged, so the newest page costs about
 * the same with 90 days of results as with one.
 */
export async function historyRows(
  ds: DataSource,
  monitorId: number,
  q: HistoryQuery,
): Promise<{ items: CheckResultView[]; total: number }> {
  // The bounds on the planned time follow from the check time's (a start lags its plan by at most
  // MAX_START_LAG_MS): they let Postgres skip the daily partitions outside the range.
  const lag = `${MAX_START_LAG_MS} * interval '1 millisecond'`;
  const where = `monitor_id = $1
    AND ($2::timestamptz IS NULL OR (${CHECKED_AT} >= $2 AND scheduled_at >= $2::timestamptz - ${lag}))
    AND ($3::timestamptz IS NULL OR (${CHECKED_AT} <= $3 AND scheduled_at <= $3::timestamptz + ${lag}))`;
  const params = [monitorId, q.from ?? null, q.to ?? null];
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_RESULT} WHERE ${where} ORDER BY scheduled_at DESC LIMIT $4`, [...params, q.limit]) as Promise<CheckResultView[]>,
    ds.query(`SELECT count(*)::int AS total FROM check_results WHERE ${where}`, params) as Promise<{ total: number }[]>,
  ]);
  return { items, total: counted[0]?.total ?? 0 };
}

/** One page of a monitor's checks, newest first, and how many there are. */
export async function resultRows(
  ds: DataSource,
  monitorId: number,
  page: PageRequest,
): Promise<{ items: CheckResultView[]; total: number }> {
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_RESULT} WHERE monitor_id = $1 ORDER BY scheduled_at DESC LIMIT $2 OFFSET $3`, [
      monitorId,
      page.limit,
      page.offset,
    ]) as Promise<CheckResultView[]>,
    ds.query(`SELECT count(*)::int AS total FROM check_results WHERE monitor_id = $1`, [monitorId]) as Promise<{ total: number }[]>,
  ]);
  return { items, total: counted[0]?.total ?? 0 };
}
