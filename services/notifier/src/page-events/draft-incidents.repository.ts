import { queryRows, type DataSource } from '@uptime/db';

/**
 * The first update of a draft opened for a monitor gone offline. It names no monitor (the
 * incident's monitors do), so no monitor name is ever read as Markdown; the owner adds the words
 * that matter in their own updates before or after publishing.
 */
export const DRAFT_INCIDENT_MESSAGE = 'A monitor on this page stopped answering its checks. We are investigating.';

/**
 * Opens a draft incident (published false, major impact, investigating, started when the
 * downtime started, affecting the monitor) on every page with `auto_incidents` that shows the
 * monitor, for the monitor's open downtime `downtimeId`; none for a monitor in maintenance
 * (planned work is not an outage). One statement: two unique indexes of status_page_incidents
 * keep it to one draft per page per downtime, and none while one opened for the monitor is still
 * open on the page (migration 1796520100001), so a redelivered event or two notifiers handling
 * it at once open nothing more. Returns the ids of the drafts opened.
 */
export async function openDraftIncidents(ds: DataSource, monitorId: number, downtimeId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    ds.manager,
    `WITH pages AS (
       SELECT spm.status_page_id, m.name, d.started_at
         FROM status_page_monitors spm
         JOIN status_pages sp ON sp.id = spm.status_page_id AND sp.auto_incidents
         JOIN monitors m ON m.id = spm.monitor_id AND NOT m.in_maintenance
         JOIN incidents d ON d.id = $2 AND d.monitor_id = m.id AND d.resolved_at IS NULL
        WHERE spm.monitor_id = $1
     ), drafts AS (
       INSERT INTO status_page_incidents (status_page_id, title, impact, status, started_at, published, auto_monitor_id, auto_downtime_id)
       SELECT status_page_id, left(name || ' is down', 200), 'major', 'investigating', started_at, false, $1, $2 FROM pages
       ON CONFLICT DO NOTHING
       RETURNING id
     ), affected AS (
       INSERT INTO status_page_incident_monitors (incident_id, monitor_id, position) SELECT id, $1, 0 FROM drafts
     )
     INSERT INTO status_page_incident_updates (incident_id, status, message)
     SELECT id, 'investigating', $3 FROM drafts
     RETURNING incident_id AS id`,
    [monitorId, downtimeId, DRAFT_INCIDENT_MESSAGE],
  );
  return rows.map((r) => r.id);
}
