import type { DataSource } from '@uptime/db';
import type { MaintenanceWindowRow } from '../maintenance-windows/maintenance-windows.repository';
import type { IncidentImpact, IncidentStatus } from '../status-page-incidents/incident.dto';

/** An incident as the public reads it: the names of the page's monitors it affects, its updates newest first. */
export interface PublicIncidentRow {
  id: number;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  started_at: Date;
  resolved_at: Date | null;
  monitors: string[];
  updates: { id: number; status: IncidentStatus; message: string; created_at: Date }[];
}

const SELECT_INCIDENTS = `
  SELECT i.id, i.title, i.impact, i.status, i.started_at, i.resolved_at,
         COALESCE((SELECT array_agg(m.name ORDER BY im.position)
                     FROM status_page_incident_monitors im
                     JOIN status_page_monitors spm ON spm.monitor_id = im.monitor_id AND spm.status_page_id = i.status_page_id
                     JOIN monitors m ON m.id = im.monitor_id
                    WHERE im.incident_id = i.id), '{}') AS monitors
    FROM status_page_incidents i`;

async function withUpdates(ds: DataSource, incidents: Omit<PublicIncidentRow, 'updates'>[]): Promise<PublicIncidentRow[]> {
  if (incidents.length === 0) return [];
  const rows: (PublicIncidentRow['updates'][number] & { incident_id: number })[] = await ds.query(
    `SELECT id, incident_id, status, message, created_at FROM status_page_incident_updates WHERE incident_id = ANY($1) ORDER BY created_at DESC, id DESC`,
    [incidents.map((i) => i.id)],
  );
  return incidents.map((i) => ({
    ...i,
    updates: rows.filter((u) => u.incident_id === i.id).map(({ id, status, message, created_at }) => ({ id, status, message, created_at })),
  }));
}

/**
 * The page's incidents the public page shows, newest start first: every open one, and every one
 * that started since `since`; with their updates (two queries). Drafts are the owner's alone:
 * never shown, so neither in the feeds made from these.
 */
export async function readPublicIncidents(ds: DataSource, pageId: number, since: Date): Promise<PublicIncidentRow[]> {
  const incidents: Omit<PublicIncidentRow, 'updates'>[] = await ds.query(
    `${SELECT_INCIDENTS} WHERE i.status_page_id = $1 AND i.published AND (i.resolved_at IS NULL OR i.started_at >= $2) ORDER BY i.started_at DESC, i.id DESC`,
    [pageId, since],
  );
  return withUpdates(ds, incidents);
}

/** One incident of the published page `slug`, with the page's title; undefined when either is unknown or unpublished. */
export async function readPublishedIncident(
  ds: DataSource,
  slug: string,
  incidentId: number,
): Promise<{ title: string; description: string | null; custom_domain: string | null; incident: PublicIncidentRow } | undefined> {
  const rows: (Omit<PublicIncidentRow, 'updates'> & { page_title: string; page_description: string | null; custom_domain: string | null })[] = await ds.query(
    `${SELECT_INCIDENTS.replace('SELECT i.id,', 'SELECT sp.title AS page_title, sp.description AS page_description, sp.custom_domain, i.id,')}
      JOIN status_pages sp ON sp.id = i.status_page_id
     WHERE sp.slug = $1 AND sp.published AND i.published AND i.id = $2`,
    [slug, incidentId],
  );
  const [row] = rows;
  if (!row) return undefined;
  const { page_title, page_description, custom_domain, ...incident } = row;
  const [withTimeline] = await withUpdates(ds, [incident]);
  return { title: page_title, description: page_description, custom_domain, incident: withTimeline! };
}

/** A maintenance window covering some of the page's monitors, with their names in page order. */
export type PageWindowRow = Pick<
  MaintenanceWindowRow,
  'id' | 'name' | 'starts_at' | 'duration_minutes' | 'repeat' | 'weekdays' | 'timezone' | 'updated_at'
> & {
  monitors: string[];
};

/** The windows covering any of the page's monitors. */
export async function readPageWindows(ds: DataSource, pageId: number): Promise<PageWindowRow[]> {
  return ds.query(
    `SELECT w.id, w.name, w.starts_at, w.duration_minutes, w.repeat, w.weekdays, w.timezone, w.updated_at,
            array_agg(m.name ORDER BY spm.position) AS monitors
       FROM status_page_monitors spm
       JOIN maintenance_window_monitors wm ON wm.monitor_id = spm.monitor_id
       JOIN maintenance_windows w ON w.id = wm.window_id
       JOIN monitors m ON m.id = spm.monitor_id
      WHERE spm.status_page_id = $1
      GROUP BY w.id
      ORDER BY w.id`,
    [pageId],
  );
}
