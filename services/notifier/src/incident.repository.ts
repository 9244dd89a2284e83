import { queryRows, type EntityManager } from '@uptime/db';
import { AUDIENCE_COLUMNS, AUDIENCE_JOINS, audienceOf, type AlertAudience, type AudienceRow } from './alert-audience.repository';

/** An incident with what notifying about it needs: its monitor's alert settings and owner. */
export interface IncidentContext extends AlertAudience {
  incidentId: number;
  alertOnRecovery: boolean;
  startedAt: Date;
  /** Null while the monitor is still down. */
  resolvedAt: Date | null;
  /** Seconds; null while unresolved. */
  duration: number | null;
  statusCode: number | null;
  responseTime: number | null;
  error: string | null;
}

/**
 * SQL for an incident's duration in seconds (`i` = incidents): the recorded value, or computed from
 * its timestamps should a writer have left it empty.
 */
export const INCIDENT_DURATION_SQL = `COALESCE(i.duration, GREATEST(0, round(extract(epoch FROM i.resolved_at - i.started_at)))::int)`;

interface Row extends AudienceRow {
  incident_id: number;
  alert_on_recovery: boolean;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  status_code: number | null;
  response_time: number | null;
  error: string | null;
}

/** The incident `incidentId` with its monitor and owner, or null when it is gone (monitor deleted). */
export async function loadIncidentContext(db: EntityManager, incidentId: number): Promise<IncidentContext | null> {
  const [row] = await queryRows<Row>(
    db,
    `SELECT i.id AS incident_id, ${AUDIENCE_COLUMNS}, m.alert_on_recovery,
            i.started_at, i.resolved_at, CASE WHEN i.resolved_at IS NULL THEN NULL ELSE ${INCIDENT_DURATION_SQL} END AS duration,
            i.status_code, i.response_time, i.error
       FROM incidents i
       JOIN monitors m ON m.id = i.monitor_id
       ${AUDIENCE_JOINS}
      WHERE i.id = $1`,
    [incidentId],
  );
  if (!row) return null;
  return {
    ...audienceOf(row),
    incidentId: row.incident_id,
    alertOnRecovery: row.alert_on_recovery,
    startedAt: row.started_at,
    resolvedAt: row.resolved_at,
    duration: row.duration,
    statusCode: row.status_code,
    responseTime: row.response_time,
    error: row.error,
  };
}
