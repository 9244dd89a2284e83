import { statusPageBaseUrl, type MonitorStatus } from '@uptime/db';
import { DAY_MS, floorTo } from '../monitor-stats/time-buckets';
import { uptimeByMonitor, uptimePercent, type UptimeSource } from '../monitor-stats/uptime.repository';
import { heartbeatDailyUptimes } from '../monitor-stats/heartbeat-uptime.repository';
import type { IncidentImpact } from '../status-page-incidents/incident.dto';
import { readPageWindows, readPublicIncidents } from './public-incidents.repository';
import {
  incidentsByDay,
  incidentUrl,
  maintenanceNotices,
  maintenanceOccurrences,
  toPublicIncident,
  worstImpact,
  type IncidentDay,
  type MaintenanceNotice,
  type PublicIncident,
} from './public-page-sections';
import { feedEntries, renderFeeds } from './page-feed';
import { groupBySection, type PublicSection } from './page-sections';
import { PUBLIC_DAYS, readDailyCounts, readPageWithMonitors, type DailyCounts, type PageSelector } from './public-status.repository';

export type PageStatus = 'operational' | 'degraded' | 'outage';
export const PAGE_STATUSES: readonly PageStatus[] = ['operational', 'degraded', 'outage'];

/**
 * What anyone may read of a published page: names, states and uptime only. No monitor URL, id,
 * owner or error text: the owner chose what to publish, not how it is checked.
 */
/** What a page shows for a monitor: its status, or maintenance in place of it (docs/status-pages.md). */
export type DisplayStatus = MonitorStatus | 'maintenance';

export interface PublicStatusPage {
  slug: string;
  title: string;
  description: string | null;
  status: PageStatus;
  monitors: {
    name: string;
    /** The name of its section; null for a monitor in none. */
    section: string | null;
    status: MonitorStatus;
    /** Its latest check fell in a maintenance window (never for a paused monitor): shown as Maintenance, not Down. */
    in_maintenance: boolean;
    /** What the page shows for it: its status, or `maintenance` in place of it while in_maintenance. */
    display_status: DisplayStatus;
    uptime_24h: number | null;
    uptime_90d: number | null;
    days: { date: string; uptime: number | null }[];
  }[];
  /** How `monitors` fall into sections, in order: runs of consecutive monitors, the unnamed one (null) first (page-sections.ts). */
  sections: PublicSection[];
  active_incidents: { monitor_name: string; started_at: string }[];
  /** The worst impact of the operators' open incidents; null when none is open. */
  impact: IncidentImpact | null;
  /** The operators' open incidents, newest start first, each with its timeline. */
  incidents: PublicIncident[];
  /** Maintenance of the page's monitors in progress, then starting within 7 days. */
  maintenance: MaintenanceNotice[];
  /** The last 90 UTC days, today first, each with the incidents that started on it. */
  past_incidents: IncidentDay[];
  /** When these figures were read (they are cached for PUBLIC_CACHE_SECONDS). */
  updated_at: string;
}

/**
 * "outage" when a monitor on the page is offline, "degraded" when one is in warning, else
 * "operational". A paused monitor counts as none of these (nor does a pending one, not yet checked);
 * the caller leaves out the monitors in maintenance too: planned work is not an outage.
 */
export function pageStatusOf(statuses: readonly MonitorStatus[]): PageStatus {
  if (statuses.includes('offline')) return 'outage';
  if (statuses.includes('warning')) return 'degraded';
  return 'operational';
}

/** The last PUBLIC_DAYS UTC days, oldest first, each with its uptime (null without checks), and their total. */
export function dailyUptime(counts: readonly DailyCounts[], now: Date): { days: { date: string; uptime: number | null }[]; total: number | null } {
  const byDay = new Map(counts.map((c) => [c.day, c]));
  const today = floorTo(now, DAY_MS).getTime();
  let checks = 0;
  let successes = 0;
  const days: { date: string; uptime: number | null }[] = [];
  for (let i = PUBLIC_DAYS - 1; i >= 0; i -= 1) {
    const day = today - i * DAY_MS;
    const c = byDay.get(day);
    checks += c?.checks ?? 0;
    successes += c?.successes ?? 0;
    days.push({ date: new Date(day).toISOString().slice(0, 10), uptime: c ? uptimePercent(c.successes, c.checks) : null });
  }
  return { days, total: uptimePercent(successes, checks) };
}

/**
 * Whether a monitor is shown in maintenance: its latest check fell in a window
 * (docs/alert-rules.md). A paused monitor is shown paused, whatever its last check was.
 */
export const shownInMaintenance = (m: { status: MonitorStatus; in_maintenance: boolean }): boolean => m.in_maintenance && m.status !== 'paused';

/**
 * The public view of the published page `slug`, or undefined when it is unknown or unpublished.
 * One query set: the page with its monitors, their daily rollups, their 24 h uptime (read as
 * the monitor API reads it, so both show the same figure), the operators' incidents of the 90
 * days and the open ones with their updates, and the maintenance windows over the monitors.
 */
export async function readPublicStatusPage(source: UptimeSource, slug: string, publicUrl: string, now = new Date()): Promise<PublicStatusPage | undefined> {
  return (await readPublicStatus(source, { slug }, publicUrl, now))?.page;
}

/**
 * The public view of a page and its feeds (Atom and RSS), from the same query set; undefined when
 * `selector` names no page (a slug: unknown or unpublished). The owner's preview reads its page by
 * id through the same function, so it shows exactly what visitors will (docs/status-pages.md).
 */
export async function readPublicStatus(
  source: UptimeSource,
  selector: PageSelector,
  publicUrl: string,
  now = new Date(),
): Promise<{ page: PublicStatusPage; feeds: { atom: string; rss: string } } | undefined> {
  const page = await readPageWithMonitors(source.ds, selector);
  if (!page) return undefined;
  const ids = page.monitors.map((m) => m.id);
  const since = new Date(floorTo(now, DAY_MS).getTime() - (PUBLIC_DAYS - 1) * DAY_MS);
  const [daily, heartbeatDays, uptime, incidentRows, windows] = await Promise.all([
    readDailyCounts(source.ds, ids, now),
    heartbeatDailyUptimes(source.ds, ids, now, PUBLIC_DAYS),
    uptimeByMonitor(source, ids, now),
    readPublicIncidents(source.ds, page.id, since),
    readPageWindows(source.ds, page.id),
  ]);
  const pageUrl = statusPageBaseUrl(publicUrl, page);
  const incidents = incidentRows.map((row) => toPublicIncident(row, incidentUrl(pageUrl, row.id)));
  const occurrences = maintenanceOccurrences(windows, now);
  const { monitors, sections } = groupBySection(page.monitors);
  const shown = monitors.filter((m) => m.status !== 'paused');
  const view: PublicStatusPage = {
    slug: page.slug,
    title: page.title,
    description: page.description,
    status: pageStatusOf(shown.filter((m) => !shownInMaintenance(m)).map((m) => m.status)),
    monitors: monitors.map((m) => {
      // A heartbeat's bars are time not offline, as its uptime is (docs/statistics.md).
      const { days, total } = heartbeatDays.get(m.id) ?? dailyUptime(daily.get(m.id) ?? [], now);
      const inMaintenance = shownInMaintenance(m);
      return {
        name: m.name,
        section: m.section,
        status: m.status,
        in_maintenance: inMaintenance,
        display_status: inMaintenance ? ('maintenance' as const) : m.status,
        uptime_24h: uptime.get(m.id)?.['24h'] ?? null,
        uptime_90d: total,
        days,
      };
    }),
    sections,
    active_incidents: shown
      .filter((m) => m.incident_started_at !== null)
      .map((m) => ({ monitor_name: m.name, started_at: new Date(m.incident_started_at!).toISOString() })),
    impact: worstImpact(incidents),
    incidents: incidents.filter((i) => i.resolved_at === null),
    maintenance: maintenanceNotices(occurrences),
    past_incidents: incidentsByDay(incidents.filter((i) => i.started_at >= since.toISOString()), now),
    updated_at: now.toISOString(),
  };
  return { page: view, feeds: renderFeeds(page.title, pageUrl, feedEntries(pageUrl, incidents, occurrences), now) };
}
