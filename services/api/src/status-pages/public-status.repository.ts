import type { DataSource } from '@uptime/db';
import type { MonitorStatus } from '@uptime/db';
import { DAY_MS, floorTo } from '../monitor-stats/time-buckets';
import type { SectionPlace } from './page-sections';

export interface PageViewRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  /** Its host name of its own, if any (docs/status-pages.md, "Custom domains"). */
  custom_domain: string | null;
  /**
   * The page's monitors in page order: name, status, whether its latest check fell in a
   * maintenance window, the start of an open downtime, and its place in a section if it has one.
   */
  monitors: ({ id: number; name: string; status: MonitorStatus; in_maintenance: boolean; incident_started_at: string | null } & SectionPlace)[];
}

/**
 * Which page a view is read for: the published page of a slug (what visitors read), or a page of
 * an organization by id, published or not (its owner's preview, docs/status-pages.md).
 */
export type PageSelector = { slug: string } | { organizationId: number; id: number };

/** The page `selector` names with its monitors, in one query; undefined when there is none (for a slug: unknown or unpublished). */
export async function readPageWithMonitors(ds: DataSource, selector: PageSelector): Promise<PageViewRow | undefined> {
  const [where, params] = 'slug' in selector ? ['sp.slug = $1 AND sp.published', [selector.slug]] : ['sp.id = $1 AND sp.organization_id = $2', [selector.id, selector.organizationId]];
  const [row]: PageViewRow[] = await ds.query(
    `SELECT sp.id, sp.slug, sp.title, sp.description, sp.custom_domain,
            COALESCE(json_agg(json_build_object('id', m.id, 'name', m.name, 'status', m.status,
                                                'in_maintenance', m.in_maintenance, 'incident_started_at', i.started_at,
                                                'section', s.name, 'section_position', s.position, 'position_in_section', ssm.position) ORDER BY spm.position)
                     FILTER (WHERE m.id IS NOT NULL), '[]') AS monitors
       FROM status_pages sp
       LEFT JOIN status_page_monitors spm ON spm.status_page_id = sp.id
       LEFT JOIN monitors m ON m.id = spm.monitor_id
       LEFT JOIN status_page_section_monitors ssm ON ssm.status_page_id = spm.status_page_id AND ssm.monitor_id = spm.monitor_id
       LEFT JOIN status_page_sections s ON s.id = ssm.section_id
       LEFT JOIN incidents i ON i.id = m.open_incident_id AND i.resolved_at IS NULL
      WHERE ${where}
      GROUP BY sp.id`,
    params,
  );
  return row;
}

export interface DailyCounts {
  /** Midnight UTC of the day. */
  day: number;
  checks: number;
  successes: number;
}

/** How many UTC days a page's bars and its 90-day uptime cover, today included. */
export const PUBLIC_DAYS = 90;

/** Daily rollups of the last PUBLIC_DAYS UTC days (today included) per monitor, in one query. */
export async function readDailyCounts(ds: DataSource, monitorIds: number[], now: Date): Promise<Map<number, DailyCounts[]>> {
  const byMonitor = new Map<number, DailyCounts[]>(monitorIds.map((id) => [id, []]));
  if (monitorIds.length === 0) return byMonitor;
  const first = floorTo(now, DAY_MS).getTime() - (PUBLIC_DAYS - 1) * DAY_MS;
  const rows: { monitor_id: number; bucket: Date; checks: number; successes: number }[] = await ds.query(
    `SELECT monitor_id, bucket, checks, successes FROM check_rollups_1d WHERE monitor_id = ANY($1) AND bucket >= $2`,
    [monitorIds, new Date(first)],
  );
  for (const r of rows) byMonitor.get(r.monitor_id)?.push({ day: r.bucket.getTime(), checks: r.checks, successes: r.successes });
  return byMonitor;
}
