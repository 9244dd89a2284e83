import { queryRows, type EntityManager } from '@uptime/db';
import type { AlertAudience, AlertContext, AlertRef } from './alert';
import { ALERT_KINDS } from './alert-kinds';
import type { AlertRow } from './alert-kinds/alert-kind';

/**
 * The SQL of alerts, of every kind: loading one with what notifying about it needs. Every alert
 * is a row of `alerts` (named `a` in a query) and a notification names it by `alert_id`.
 */

/** The alert's duration in seconds once resolved: the recorded value, or computed from its timestamps should a writer have left it empty. */
export const ALERT_DURATION = `COALESCE(a.duration, GREATEST(0, round(extract(epoch FROM a.resolved_at - a.started_at)))::int)`;

/**
 * The addresses of the members of monitor `m`'s organization who have alerts on, oldest member
 * first: a monitor's emails go to them when it names no recipients (docs/organizations.md).
 */
export const MEMBER_EMAILS = `ARRAY(SELECT mu.email FROM organization_members om JOIN users mu ON mu.id = om.user_id
                    WHERE om.organization_id = m.organization_id AND om.alerts ORDER BY om.created_at, om.user_id) AS member_emails`;

/** The channels attached to monitor `m`, id order, as `AttachedChannel`s (their secrets still sealed). */
export const ATTACHED_CHANNELS = `COALESCE((SELECT json_agg(json_build_object('id', c.id, 'type', c.type, 'config', c.config, 'sealed', c.sealed_secrets, 'own', c.monitor_id IS NOT NULL) ORDER BY c.id)
                        FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id WHERE mc.monitor_id = m.id), '[]') AS channels`;

/** The channels monitor `m`'s escalation goes to (docs/alert-rules.md), id order, as `AttachedChannel`s. */
export const ESCALATION_CHANNELS = `COALESCE((SELECT json_agg(json_build_object('id', c.id, 'type', c.type, 'config', c.config, 'sealed', c.sealed_secrets, 'own', false) ORDER BY c.id)
                        FROM monitor_escalation_channels ec JOIN channels c ON c.id = ec.channel_id WHERE ec.monitor_id = m.id), '[]') AS escalation_channels`;

/** The audience's columns, from `m` (monitors), `u` (its owner) and `p` (the owner's preferences), as loadAlert() joins them. */
const AUDIENCE_COLUMNS = `m.id AS monitor_id, m.owner_id, ${MEMBER_EMAILS}, m.name AS monitor_name,
            -- A heartbeat has no url (docs/heartbeats.md): its messages say what it is instead.
            CASE WHEN m.type = 'heartbeat' THEN 'heartbeat' ELSE m.url END AS monitor_url,
            COALESCE(p.email_notifications, true) AS email_notifications, ${ATTACHED_CHANNELS}, ${ESCALATION_CHANNELS}`;

function audienceOf(row: AlertRow): AlertAudience {
  return {
    monitorId: row.monitor_id,
    ownerId: row.owner_id,
    memberEmails: row.member_emails,
    monitorName: row.monitor_name,
    monitorUrl: row.monitor_url,
    emailNotifications: row.email_notifications,
    channels: row.channels,
    escalationChannels: row.escalation_channels,
  };
}

/** The alert `ref` with its monitor and owner, or null when it is gone (its monitor was deleted). */
export async function loadAlert(db: EntityManager, ref: AlertRef): Promise<AlertContext | null> {
  const [row] = await queryRows<AlertRow>(
    db,
    `SELECT a.id, a.kind, ${AUDIENCE_COLUMNS}, m.alert_on_recovery, m.alert_on_slow,
            a.started_at, a.resolved_at, CASE WHEN a.resolved_at IS NULL THEN NULL ELSE ${ALERT_DURATION} END AS duration,
            a.status_code, a.response_time, a.error, a.response_time_threshold, a.certificate_expires_at, a.certificate_expiry_days
       FROM alerts a
       JOIN monitors m ON m.id = a.monitor_id
       LEFT JOIN user_preferences p ON p.user_id = m.owner_id
      WHERE a.id = $1`,
    [ref.id],
  );
  if (!row) return null;
  const base = { ...audienceOf(row), ref, startedAt: row.started_at, resolvedAt: row.resolved_at, duration: row.duration };
  return ALERT_KINDS[row.kind].contextOf(base, row);
}
