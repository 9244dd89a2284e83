import type { DataSource, EntityManager } from '@uptime/db';
import type { IncidentImpact, IncidentStatus } from './incident.dto';

type Db = DataSource | EntityManager;

export interface IncidentUpdateRow {
  id: number;
  incident_id: number;
  status: IncidentStatus;
  message: string;
  created_at: Date;
}

/** An incident of a status page with its monitors (in order) and its updates (newest first). */
export interface IncidentRow {
  id: number;
  status_page_id: number;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  started_at: Date;
  resolved_at: Date | null;
  /** false for a draft: visitors and subscribers see only published incidents. */
  published: boolean;
  created_at: Date;
  updated_at: Date;
  monitor_ids: number[];
  updates: IncidentUpdateRow[];
}

/**
 * The organization's page `pageId` with its monitors' ids, share-locked until the transaction
 * ends (its slug and monitors stay as read while an incident is written); null when there is none.
 */
export async function lockOwnPage(
  em: EntityManager,
  organizationId: number,
  pageId: number,
): Promise<{ slug: string; monitor_ids: number[] } | null> {
  const [page]: { slug: string }[] = await em.query(`SELECT slug FROM status_pages WHERE id = $1 AND organization_id = $2 FOR SHARE`, [
    pageId,
    organizationId,
  ]);
  if (!page) return null;
  const monitors: { monitor_id: number }[] = await em.query(`SELECT monitor_id FROM status_page_monitors WHERE status_page_id = $1`, [
    pageId,
  ]);
  return { slug: page.slug, monitor_ids: monitors.map((m) => m.monitor_id) };
}

/** Whether the organization has the page `pageId`. */
export async function isOwnPage(db: Db, organizationId: number, pageId: number): Promise<boolean> {
  const rows: unknown[] = await db.query(`SELECT 1 FROM status_pages WHERE id = $1 AND organization_id = $2`, [pageId, organizationId]);
  return rows.length > 0;
}

/** The incidents among `ids` of the organization's page, newest start first, each with its monitors and updates. */
export async function readPageIncidents(db: Db, organizationId: number, pageId: number, ids: number[]): Promise<IncidentRow[]> {
  const incidents: Omit<IncidentRow, 'updates'>[] = await db.query(
    `SELECT i.id, i.status_page_id, i.title, i.impact, i.status, i.started_at, i.resolved_at, i.published, i.created_at, i.updated_at,
            COALESCE(array_agg(im.monitor_id ORDER BY im.position) FILTER (WHERE im.monitor_id IS NOT NULL), '{}') AS monitor_ids
       FROM status_page_incidents i
       JOIN status_pages sp ON sp.id = i.status_page_id AND sp.organization_id = $1
       LEFT JOIN status_page_incident_monitors im ON im.incident_id = i.id
      WHERE i.status_page_id = $2 AND i.id = ANY($3)
      GROUP BY i.id
      ORDER BY i.started_at DESC, i.id DESC`,
    [organizationId, pageId, ids],
  );
  const updates = await readUpdates(
    db,
    incidents.map((i) => i.id),
  );
  return incidents.map((i) => ({ ...i, updates: updates.get(i.id) ?? [] }));
}

/** The updates of the incidents `ids`, newest first, by incident. */
export async function readUpdates(db: Db, incidentIds: number[]): Promise<Map<number, IncidentUpdateRow[]>> {
  const byIncident = new Map<number, IncidentUpdateRow[]>();
  if (incidentIds.length === 0) return byIncident;
  const rows: IncidentUpdateRow[] = await db.query(
    `SELECT id, incident_id, status, message, created_at FROM status_page_incident_updates WHERE incident_id = ANY($1) ORDER BY created_at DESC, id DESC`,
    [incidentIds],
  );
  for (const r of rows) byIncident.set(r.incident_id, [...(byIncident.get(r.incident_id) ?? []), r]);
  return byIncident;
}

/** One page of the page's incident ids, newest start first, and how many there are. */
export async function listPageIncidentIds(
  ds: DataSource,
  pageId: number,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT id FROM status_page_incidents WHERE status_page_id = $1 ORDER BY started_at DESC, id DESC LIMIT $2 OFFSET $3`, [
      pageId,
      limit,
      offset,
    ]) as Promise<{ id: number }[]>,
    ds.query(`SELECT count(*)::int AS total FROM status_page_incidents WHERE status_page_id = $1`, [pageId]) as Promise<
      { total: number }[]
    >,
  ]);
  return { ids: rows.map((r) => r.id), total: count?.total ?? 0 };
}

/** Inserts an incident in `status` (resolved now when that is resolved), published or a draft, and returns its id. */
export async function insertIncident(
  em: EntityManager,
  pageId: number,
  fields: { title: string; impact: IncidentImpact; status: IncidentStatus; started_at: Date | null; published: boolean },
): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO status_page_incidents (status_page_id, title, impact, status, started_at, resolved_at, published)
     VALUES ($1, $2, $3, $4, COALESCE($5, now()), CASE WHEN $6 THEN now() END, $7) RETURNING id`,
    [pageId, fields.title, fields.impact, fields.status, fields.started_at, fields.status === 'resolved', fields.published],
  );
  return row!.id;
}

/** What the service reads of an incident it is about to change. */
export interface LockedIncident {
  started_at: Date;
  resolved_at: Date | null;
  published: boolean;
  updates: number;
  /** Its newest update: the one subscribers are told of when a draft is published. */
  latest_update_id: number | null;
}

/** The incident of the page, locked until the transaction ends; null when there is none. */
export async function lockPageIncident(em: EntityManager, pageId: number, incidentId: number): Promise<LockedIncident | null> {
  const [row]: LockedIncident[] = await em.query(
    `SELECT started_at, resolved_at, published,
            (SELECT count(*)::int FROM status_page_incident_updates WHERE incident_id = i.id) AS updates,
            (SELECT max(id) FROM status_page_incident_updates WHERE incident_id = i.id) AS latest_update_id
       FROM status_page_incidents i WHERE id = $1 AND status_page_id = $2 FOR UPDATE`,
    [incidentId, pageId],
  );
  return row ?? null;
}

/** Writes the given fields of an incident; an absent one stays. */
export async function updateIncidentFields(
  em: EntityManager,
  incidentId: number,
  fields: { title?: string; impact?: IncidentImpact; started_at?: Date; published?: boolean },
): Promise<void> {
  await em.query(
    `UPDATE status_page_incidents SET title = COALESCE($2, title), impact = COALESCE($3, impact), started_at = COALESCE($4, started_at),
            published = COALESCE($5, published), updated_at = now()
      WHERE id = $1`,
    [incidentId, fields.title ?? null, fields.impact ?? null, fields.started_at ?? null, fields.published ?? null],
  );
}

/**
 * Moves the incident to `status`: resolved sets `resolved_at` (kept when it was resolved already),
 * any other status clears it (the incident is open again).
 */
export async function moveIncidentStatus(em: EntityManager, incidentId: number, status: IncidentStatus): Promise<void> {
  await em.query(
    `UPDATE status_page_incidents
        SET status = $2, resolved_at = CASE WHEN $3 THEN COALESCE(resolved_at, now()) END, updated_at = now()
      WHERE id = $1`,
    [incidentId, status, status === 'resolved'],
  );
}

/** Adds an update to the timeline; returns its id. */
export async function insertIncidentUpdate(em: EntityManager, incidentId: number, status: IncidentStatus, message: string): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO status_page_incident_updates (incident_id, status, message) VALUES ($1, $2, $3) RETURNING id`,
    [incidentId, status, message],
  );
  return row!.id;
}

/** Replaces the incident's monitors, in the order given. */
export async function setIncidentMonitors(em: EntityManager, incidentId: number, monitorIds: number[]): Promise<void> {
  await em.query(`DELETE FROM status_page_incident_monitors WHERE incident_id = $1`, [incidentId]);
  if (monitorIds.length === 0) return;
  await em.query(
    `INSERT INTO status_page_incident_monitors (incident_id, monitor_id, position)
     SELECT $1, id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS m(id, ord)`,
    [incidentId, monitorIds],
  );
}

/** Deletes the page's incident (its updates and monitors go with it); false when there is none. */
export async function deletePageIncident(em: EntityManager, pageId: number, incidentId: number): Promise<boolean> {
  const [deleted]: [{ id: number }[], number] = await em.query(
    `DELETE FROM status_page_incidents WHERE id = $1 AND status_page_id = $2 RETURNING id`,
    [incidentId, pageId],
  );
  return deleted.length > 0;
}
