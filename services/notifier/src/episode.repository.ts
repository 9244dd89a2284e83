import { queryRows, type AlertEpisodeKind, type EntityManager } from '@uptime/db';
import type { IncidentContext } from './incident.repository';

/** Who hears of a monitor's alerts and how: the part of a context every channel reads. */
export type AlertAudience = Pick<
  IncidentContext,
  'monitorId' | 'ownerId' | 'ownerEmail' | 'monitorName' | 'monitorUrl' | 'emailEnabled' | 'emailRecipients' | 'slackWebhookUrl' | 'webhook'
>;

/** An alert episode (a slow period, a certificate under its limit) with its monitor's alert settings. */
export interface EpisodeContext extends AlertAudience {
  episodeId: number;
  kind: AlertEpisodeKind;
  alertOnSlow: boolean;
  startedAt: Date;
  /** Null while the episode lasts. */
  resolvedAt: Date | null;
  /** Seconds; null while unresolved. */
  duration: number | null;
  /** slow: the response time of the check that opened it, and the threshold it exceeded. */
  responseTime: number | null;
  responseTimeThreshold: number | null;
  /** certificate: the certificate's notAfter and the limit (days) it fell under. */
  certificateExpiresAt: Date | null;
  certificateExpiryDays: number | null;
}

/** What a delivery is sent about: a downtime incident, or an alert episode. */
export type AlertContext = IncidentContext | EpisodeContext;

export const isEpisodeContext = (ctx: AlertContext): ctx is EpisodeContext => 'episodeId' in ctx;

/** "incident 12" or "episode 7", for logs and errors. */
export const describeSubject = (ctx: AlertContext): string =>
  isEpisodeContext(ctx) ? `episode ${ctx.episodeId}` : `incident ${ctx.incidentId}`;

/** SQL for an episode's duration in seconds (`e` = alert_episodes). */
export const EPISODE_DURATION_SQL = `GREATEST(0, round(extract(epoch FROM e.resolved_at - e.started_at)))::int`;

interface Row {
  episode_id: number;
  kind: AlertEpisodeKind;
  monitor_id: number;
  owner_id: number;
  owner_email: string;
  monitor_name: string;
  monitor_url: string;
  email_enabled: boolean;
  email_recipients: string[];
  alert_on_slow: boolean;
  slack_webhook_url: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  response_time: number | null;
  response_time_threshold: number | null;
  certificate_expires_at: Date | null;
  certificate_expiry_days: number | null;
}

/** The episode `episodeId` with its monitor and owner, or null when it is gone (monitor deleted). */
export async function loadEpisodeContext(db: EntityManager, episodeId: number): Promise<EpisodeContext | null> {
  const [row] = await queryRows<Row>(
    db,
    // The channel settings are read as loadIncidentContext() reads them (incident-context.ts).
    `SELECT e.id AS episode_id, e.kind, e.monitor_id, m.owner_id, u.email AS owner_email, m.name AS monitor_name, m.url AS monitor_url,
            m.email_enabled AND COALESCE(p.email_notifications, true) AS email_enabled,
            m.email_recipients, m.alert_on_slow,
            CASE WHEN m.slack_enabled THEN m.slack_webhook_url END AS slack_webhook_url,
            CASE WHEN m.webhook_enabled THEN m.webhook_url END AS webhook_url, m.webhook_secret,
            e.started_at, e.resolved_at, CASE WHEN e.resolved_at IS NULL THEN NULL ELSE ${EPISODE_DURATION_SQL} END AS duration,
            e.response_time, e.response_time_threshold, e.certificate_expires_at, e.certificate_expiry_days
       FROM alert_episodes e
       JOIN monitors m ON m.id = e.monitor_id
       JOIN users u ON u.id = m.owner_id
       LEFT JOIN user_preferences p ON p.user_id = m.owner_id
      WHERE e.id = $1`,
    [episodeId],
  );
  if (!row) return null;
  return {
    episodeId: row.episode_id,
    kind: row.kind,
    monitorId: row.monitor_id,
    ownerId: row.owner_id,
    ownerEmail: row.owner_email,
    monitorName: row.monitor_name,
    monitorUrl: row.monitor_url,
    emailEnabled: row.email_enabled,
    emailRecipients: row.email_recipients,
    alertOnSlow: row.alert_on_slow,
    slackWebhookUrl: row.slack_webhook_url,
    webhook: row.webhook_url && row.webhook_secret ? { url: row.webhook_url, secret: row.webhook_secret } : null,
    startedAt: row.started_at,
    resolvedAt: row.resolved_at,
    duration: row.duration,
    responseTime: row.response_time,
    responseTimeThreshold: row.response_time_threshold,
    certificateExpiresAt: row.certificate_expires_at,
    certificateExpiryDays: row.certificate_expiry_days,
  };
}
