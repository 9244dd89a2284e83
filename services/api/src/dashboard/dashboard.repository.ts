import type { DataSource, MonitorStatus } from '@uptime/db';

export interface DownMonitor {
  id: number;
  name: string;
  /** Null for a heartbeat, which has none (docs/heartbeats.md). */
  url: string | null;
  /** Start of the open downtime; the last check when none is recorded. */
  since: Date | null;
  /** Its latest check fell in a maintenance window: planned work, shown apart from the outages. */
  in_maintenance: boolean;
}

/** Each of the owner's monitors: its status, whether a downtime is open, and whether it is a heartbeat. */
export function ownMonitorStatuses(
  ds: DataSource,
  organizationId: number,
): Promise<{ id: number; status: MonitorStatus; open_incident_id: number | null; is_heartbeat: boolean }[]> {
  return ds.query(`SELECT id, status, open_incident_id, type = 'heartbeat' AS is_heartbeat FROM monitors WHERE organization_id = $1`, [organizationId]);
}

/** The owner's offline monitors, longest outage first. */
export function downMonitors(ds: DataSource, organizationId: number): Promise<DownMonitor[]> {
  return ds.query(
    `SELECT m.id, m.name, CASE WHEN m.type = 'heartbeat' THEN NULL ELSE m.url END AS url, COALESCE(i.started_at, m.last_failure) AS since, m.in_maintenance
       FROM monitors m LEFT JOIN incidents i ON i.id = m.open_incident_id
      WHERE m.organization_id = $1 AND m.status = 'offline'
      ORDER BY since ASC NULLS LAST, m.id`,
    [organizationId],
  );
}
