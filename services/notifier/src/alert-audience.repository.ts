/**
 * Who hears of a monitor's alerts and how, read the same way for an incident and for an alert
 * episode (incident.repository.ts, episode.repository.ts): each joins its own row to `m` (monitors).
 */

/** Who hears of a monitor's alerts and how: the part of a context every channel reads. */
export interface AlertAudience {
  monitorId: number;
  ownerId: number;
  ownerEmail: string;
  monitorName: string;
  monitorUrl: string;
  /** The monitor's email_enabled, and the owner's email_notifications preference. */
  emailEnabled: boolean;
  emailRecipients: string[];
  /** Slack's incoming-webhook URL when Slack is enabled, else null. */
  slackWebhookUrl: string | null;
  /** The webhook's URL and HMAC key when the webhook is enabled, else null. */
  webhook: { url: string; secret: string } | null;
}

/** The audience's columns, from `m`, `u` and `p` as AUDIENCE_JOINS names them. */
export const AUDIENCE_COLUMNS = `m.id AS monitor_id, m.owner_id, u.email AS owner_email, m.name AS monitor_name, m.url AS monitor_url,
            -- The owner's email_notifications preference (docs/dashboard.md) switches every monitor's
            -- emails off; the notifications themselves are still recorded.
            m.email_enabled AND COALESCE(p.email_notifications, true) AS email_enabled, m.email_recipients,
            CASE WHEN m.slack_enabled THEN m.slack_webhook_url END AS slack_webhook_url,
            CASE WHEN m.webhook_enabled THEN m.webhook_url END AS webhook_url, m.webhook_secret`;

/** The owner and their preferences, for a query that already has `m` (monitors). */
export const AUDIENCE_JOINS = `JOIN users u ON u.id = m.owner_id
       LEFT JOIN user_preferences p ON p.user_id = m.owner_id`;

export interface AudienceRow {
  monitor_id: number;
  owner_id: number;
  owner_email: string;
  monitor_name: string;
  monitor_url: string;
  email_enabled: boolean;
  email_recipients: string[];
  slack_webhook_url: string | null;
  webhook_url: string | null;
  webhook_secret: string | null;
}

export function audienceOf(row: AudienceRow): AlertAudience {
  return {
    monitorId: row.monitor_id,
    ownerId: row.owner_id,
    ownerEmail: row.owner_email,
    monitorName: row.monitor_name,
    monitorUrl: row.monitor_url,
    emailEnabled: row.email_enabled,
    emailRecipients: row.email_recipients,
    slackWebhookUrl: row.slack_webhook_url,
    webhook: row.webhook_url && row.webhook_secret ? { url: row.webhook_url, secret: row.webhook_secret } : null,
  };
}
