import { queryRows, type EntityManager } from '@uptime/db';

/** An incident with what notifying about it needs: its monitor's alert settings and owner. */
export interface IncidentContext {
  incidentId: number;
  monitorId: number;
  ownerId: number;
  ownerEmail: string;
  monitorName: string;
  monitorUrl: string;
  /** The monitor's email_enabled, and the owner's email_notifications preference. */
  emailEnabled: boolean;
  emailRecipients: string[];
  alertOnRecovery: boolean;
  /** Slack's incoming-webhook URL when Slack is enabled, else null. */
  slackWebhookUrl: string | null;
  /** The webhook's URL and HMAC key when the webhook is enabled, else null. */
  webhook: { url: string; secret: string } | null;
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

interface Row {
  incident_id: number;
  monitor_id: number;
  owner_id: number;
  owner_email: string;
  monitor_name: string;
  monitor_url: string;
  email_enabled: boolean;
  email_recipients: string[];
  alert_on_recovery: boolean;
  slack_webhook_url: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
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
    `SELECT i.id AS incident_id, i.monitor_id, m.owner_id, u.email AS owner_email, m.name AS monitor_name,
            m.url AS monitor_url,
            -- The owner's email_notifications preference (docs/dashboard.md) switches every monitor's
            -- emails off; the notifications themselves are still recorded.
            m.email_enabled AND COALESCE(p.email_notifications, true) AS email_enabled,
            m.email_recipients, m.alert_on_recovery,
            CASE WHEN m.slack_enabled THEN m.slack_webhook_url END AS slack_webhook_url,
            CASE WHEN m.webhook_enabled THEN m.webhook_url END AS webhook_url, m.webhook_secret,
            i.started_at, i.resolved_at, CASE WHEN i.resolved_at IS NULL THEN NULL ELSE ${INCIDENT_DURATION_SQL} END AS duration,
            i.status_code, i.response_time, i.error
       FROM incidents i
       JOIN monitors m ON m.id = i.monitor_id
       JOIN users u ON u.id = m.owner_id
       LEFT JOIN user_preferences p ON p.user_id = m.owner_id
      WHERE i.id = $1`,
    [incidentId],
  );
  if (!row) return null;
  return {
    incidentId: row.incident_id,
    monitorId: row.monitor_id,
    ownerId: row.owner_id,
    ownerEmail: row.owner_email,
    monitorName: row.monitor_name,
    monitorUrl: row.monitor_url,
    emailEnabled: row.email_enabled,
    emailRecipients: row.email_recipients,
    alertOnRecovery: row.alert_on_recovery,
    slackWebhookUrl: row.slack_webhook_url,
    webhook: row.webhook_url && row.webhook_secret ? { url: row.webhook_url, secret: row.webhook_secret } : null,
    startedAt: row.started_at,
    resolvedAt: row.resolved_at,
    duration: row.duration,
    statusCode: row.status_code,
    responseTime: row.response_time,
    error: row.error,
  };
}
