import type { DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { pingRows, pingWithBody, type PingView } from '../heartbeats/heartbeat-pings.repository';
import type { PageRequest } from '../http/pagination';
import { getMonitor } from '../monitors/monitors.service';
import { historyRows, resultRows, type CheckResultView } from './check-results.repository';
import type { HistoryQuery } from './history.params';
import { withLocations } from './location-results.repository';
import { noDataSpans, type NoDataSpanView } from './no-data.repository';
import type { RecentChecksQuery } from './recent-checks.params';
import { recentCheckRows, type MonitorRecentChecks } from './recent-checks.repository';

/**
 * GET /monitors/{id}/history: the caller's monitor's checks within [from, to], newest first (at
 * most `limit`), how many there are, and the time in the range when nobody checked
 * (docs/statistics.md).
 */
export async function monitorHistory(
  ds: DataSource,
  organizationId: number,
  id: number,
  q: HistoryQuery,
  now = new Date(),
): Promise<{ items: CheckResultView[]; total: number; noData: NoDataSpanView[] }> {
  const monitor = await getMonitor(ds, organizationId, id);
  const [{ items, total }, noData] = await Promise.all([
    historyRows(ds, id, q),
    noDataSpans(ds, monitor, { from: q.from ?? null, to: q.to ?? now }, now),
  ]);
  return { items: await withLocations(ds, items), total, noData };
}

/**
 * GET /monitors/{id}/results: one page of the caller's monitor's checks, newest first; a
 * heartbeat's are its pings (docs/heartbeats.md).
 */
export async function monitorResults(
  ds: DataSource,
  organizationId: number,
  id: number,
  page: PageRequest,
): Promise<{ checks: CheckResultView[]; pings?: never; total: number } | { pings: PingView[]; checks?: never; total: number }> {
  const monitor = await getMonitor(ds, organizationId, id);
  if (monitor.type === 'heartbeat') {
    const { items, total } = await pingRows(ds, id, page);
    return { pings: items, total };
  }
  const { items, total } = await resultRows(ds, id, page);
  return { checks: await withLocations(ds, items), total };
}

/** GET /monitors/{id}/results/{result_id}: a heartbeat's ping with the body kept from it; 404 for any other. */
export async function heartbeatPing(ds: DataSource, organizationId: number, id: number, pingId: string): Promise<PingView & { body: string | null }> {
  await getMonitor(ds, organizationId, id);
  const ping = await pingWithBody(ds, id, pingId);
  if (!ping) throw new NotFoundError('result', pingId);
  return ping;
}

/**
 * GET /monitors/recent-checks: the latest checks of each of the organization's monitors named,
 * read in one query; ids of monitors it does not have are left out, as a missing one would be.
 */
export function recentChecks(ds: DataSource, organizationId: number, q: RecentChecksQuery): Promise<MonitorRecentChecks[]> {
  return recentCheckRows(ds, organizationId, q.ids, q.limit);
}
