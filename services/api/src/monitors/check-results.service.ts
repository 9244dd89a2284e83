import { MAX_START_LAG_MS, type DataSource } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import { parseIsoDate } from '../notifications/notifications.query';
import { getMonitor } from './monitors.service';
import { withLocations, type LocationResultItem } from './location-results.repository';
import { noDataSpans, type NoDataSpanView } from './no-data.repository';

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
  /** Each location's result when the check also ran through agents (docs/agent-protocol.md); empty otherwise. */
  locations?: LocationResultItem[];
}

export interface HistoryQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

const HISTORY_LIMIT = { default: 100, max: 1000 };

/** `from`, `to` (ISO 8601; a time without zone is UTC) and `limit` of GET /monitors/{id}/history. */
export function parseHistoryQuery(query: Record<string, unknown>): HistoryQuery {
  const details: Record<string, string[]> = {};
  const date = (name: 'from' | 'to'): Date | undefined => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    const parsed = typeof raw === 'string' ? parseIsoDate(raw) : undefined;
    if (!parsed) details[name] = [`${name} must be an ISO 8601 date or date-time`];
    return parsed;
  };
  const from = date('from');
  const to = date('to');
  let limit = HISTORY_LIMIT.default;
  const rawLimit = query.limit;
  if (rawLimit !== undefined && rawLimit !== '') {
    limit = typeof rawLimit === 'string' && /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= HISTORY_LIMIT.max)) details.limit = [`limit must be an integer from 1 to ${HISTORY_LIMIT.max}`];
  }
  if (from && to && from > to) details.from = ['from must not be after to'];
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid query: ${Object.keys(details).join(', ')}`, details);
  return { from, to, limit };
}

// A check's start is stored as a lag after its planned time (migration 1732270005000); a result
// row has no location of its own: each location's result is in check_location_results.
const CHECKED_AT = `(scheduled_at + start_lag_ms * interval '1 millisecond')`;
const SELECT_RESULT = `SELECT id::text AS id, ${CHECKED_AT} AS "checkedAt", ok, status_code AS "statusCode",
                              response_time AS "responseTime", error, maintenance, NULL::varchar AS location,
                              dns_ms AS "dnsMs", connect_ms AS "connectMs", tls_ms AS "tlsMs", first_byte_ms AS "firstByteMs"
                         FROM check_results`;

/**
 * Checks of a monitor within [from, to] (by checked_at), newest first, and how many there are.
 * Ordered by the planned time, unique per monitor: each daily partition's (monitor_id,
 * scheduled_at) index is read backwards and merged, so the newest page costs about the same with
 * 90 days of results as with one.
 */
export async function monitorHistory(
  ds: DataSource,
  ownerId: number,
  id: number,
  q: HistoryQuery,
  now = new Date(),
): Promise<{ items: CheckResultView[]; total: number; noData: NoDataSpanView[] }> {
  const monitor = await getMonitor(ds, ownerId, id);
  // The bounds on the planned time follow from the check time's (a start lags its plan by at most
  // MAX_START_LAG_MS): they let Postgres skip the daily partitions outside the range.
  const lag = `${MAX_START_LAG_MS} * interval '1 millisecond'`;
  const where = `monitor_id = $1
    AND ($2::timestamptz IS NULL OR (${CHECKED_AT} >= $2 AND scheduled_at >= $2::timestamptz - ${lag}))
    AND ($3::timestamptz IS NULL OR (${CHECKED_AT} <= $3 AND scheduled_at <= $3::timestamptz + ${lag}))`;
  const params = [id, q.from ?? null, q.to ?? null];
  const [items, counted, noData] = await Promise.all([
    ds.query(`${SELECT_RESULT} WHERE ${where} ORDER BY scheduled_at DESC LIMIT $4`, [...params, q.limit]) as Promise<CheckResultView[]>,
    ds.query(`SELECT count(*)::int AS total FROM check_results WHERE ${where}`, params) as Promise<{ total: number }[]>,
    noDataSpans(ds, monitor, { from: q.from ?? null, to: q.to ?? now }, now),
  ]);
  return { items: await withLocations(ds, items), total: counted[0]?.total ?? 0, noData };
}

/** One page of a monitor's checks, newest first. */
export async function monitorResults(ds: DataSource, ownerId: number, id: number, page: PageRequest): Promise<{ items: CheckResultView[]; total: number }> {
  await getMonitor(ds, ownerId, id);
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_RESULT} WHERE monitor_id = $1 ORDER BY scheduled_at DESC LIMIT $2 OFFSET $3`, [id, page.limit, page.offset]) as Promise<CheckResultView[]>,
    ds.query(`SELECT count(*)::int AS total FROM check_results WHERE monitor_id = $1`, [id]) as Promise<{ total: number }[]>,
  ]);
  return { items: await withLocations(ds, items), total: counted[0]?.total ?? 0 };
}

/** A check as the API shows it (docs/monitors.md); `location` is null for a check made by the worker itself. */
export function toCheckResultResponse(r: CheckResultView) {
  return {
    id: Number(r.id),
    checked_at: r.checkedAt.toISOString(),
    status: r.ok ? ('up' as const) : ('down' as const),
    status_code: r.statusCode,
    response_time: r.responseTime,
    error: r.error,
    maintenance: r.maintenance,
    location: r.location,
    timings: { dns: r.dnsMs, connect: r.connectMs, tls: r.tlsMs, first_byte: r.firstByteMs, total: r.responseTime },
    locations: r.locations ?? [],
  };
}
