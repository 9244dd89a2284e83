import type { MonitorStatus } from '@uptime/db';
import { readCheckStats, type CheckStats } from '@uptime/queues';
import type { NotificationView } from '../notifications/notifications.repository';
import { listNotifications } from '../notifications/notifications.service';
import { uptimeSummaries, type Uptime, type UptimeSource } from '../monitor-stats/uptime.repository';
import { downMonitors, ownMonitorStatuses, type DownMonitor } from './dashboard.repository';

export interface Dashboard {
  monitors: Record<'total' | MonitorStatus, number>;
  uptime: Uptime;
  responseTimeAvg24h: number | null;
  activeIncidents: number;
  downMonitors: DownMonitor[];
  recentNotifications: NotificationView[];
  checks: FleetChecks;
}

/** How the check-workers keep up, for "checks are running N s late: add a check-worker". */
export interface FleetChecks {
  perSecond: number;
  lagP99Seconds: number | null;
  late: boolean;
}

/**
 * The workers' own figures (docs/operations.md). With active monitors and no worker reporting,
 * nothing is being checked at all: that is late too, with no lag to tell.
 */
function fleetChecks(stats: CheckStats, activeMonitors: number): FleetChecks {
  if (stats.workers === 0) return { perSecond: 0, lagP99Seconds: null, late: activeMonitors > 0 };
  return { perSecond: stats.perSecond, lagP99Seconds: stats.lagP99Seconds, late: stats.late };
}

const WINDOWS = ['24h', '7d', '30d'] as const;

/** Mean of the values present, two decimals; null when none. */
function meanOf(values: (number | null)[], decimals: number): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  const factor = 10 ** decimals;
  return Math.round((present.reduce((a, b) => a + b, 0) / present.length) * factor) / factor;
}

/**
 * GET /dashboard (docs/dashboard.md). Uptime and the response time are averages over the caller's
 * monitors that have checks in the window (a monitor counts once, however often it is checked),
 * read through the uptime cache, so the cost grows with the number of monitors, not with history.
 */
export async function dashboardOf(source: UptimeSource, userId: number): Promise<Dashboard> {
  const { ds } = source;
  const monitors = await ownMonitorStatuses(ds, userId);
  const [summaries, down, recent, stats] = await Promise.all([
    // The heartbeats' uptime is time (docs/statistics.md), read for the heartbeats only: the row says which.
    uptimeSummaries(
      source,
      monitors.map((m) => m.id),
      new Date(),
      monitors.filter((m) => m.is_heartbeat).map((m) => m.id),
    ),
    downMonitors(ds, userId),
    listNotifications(ds, userId, {}, { page: 1, limit: 5, offset: 0 }),
    readCheckStats(source.redis, source.prefix),
  ]);
  const counts: Dashboard['monitors'] = { total: monitors.length, online: 0, offline: 0, warning: 0, pending: 0, paused: 0 };
  for (const m of monitors) counts[m.status] += 1;
  const all = [...summaries.values()];
  const uptime = Object.fromEntries(WINDOWS.map((w) => [w, meanOf(all.map((s) => s.uptime[w]), 2)])) as unknown as Uptime;
  const avg = meanOf(
    all.map((s) => (s.responseTime24h.count > 0 ? s.responseTime24h.sum / s.responseTime24h.count : null)),
    0,
  );
  return {
    monitors: counts,
    uptime,
    responseTimeAvg24h: avg,
    activeIncidents: monitors.filter((m) => m.open_incident_id !== null).length,
    downMonitors: down,
    recentNotifications: recent.items,
    checks: fleetChecks(stats, monitors.length - counts.paused),
  };
}
