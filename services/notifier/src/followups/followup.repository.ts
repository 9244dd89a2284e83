import { queryRows, type EntityManager } from '@uptime/db';
import type { AttachedChannel } from '../alert';
import { ATTACHED_CHANNELS, ESCALATION_CHANNELS, MEMBER_EMAILS } from '../alert.repository';
import type { DueFollowup, FollowupState } from './followup-schedule';

/** An open downtime that may have follow-ups due, with what sending them needs. */
export interface FollowupCandidate extends FollowupState {
  notificationId: number;
  incidentId: number;
  /** The owner's email_notifications preference: off, the monitor's own email channel sends nothing. */
  emailNotifications: boolean;
  /** The channels attached to the monitor now, its own among them: reminders go to each (docs/channels.md). */
  channels: AttachedChannel[];
  memberEmails: string[];
  escalationRecipients: string[];
  /** The channels the escalation goes to besides its recipients (docs/alert-rules.md). */
  escalationChannels: AttachedChannel[];
}

interface Row {
  notification_id: number;
  incident_id: number;
  started_at: Date;
  reminder_interval_minutes: number | null;
  escalation_after_minutes: number | null;
  escalation_recipients: string[];
  email_notifications: boolean;
  member_emails: string[];
  channels: AttachedChannel[];
  escalation_channels: AttachedChannel[];
  last_round: number | null;
  last_due: Date | null;
  escalated: boolean;
}

/**
 * Downtimes that may be followed up (only `downtime` notifications: slow and certificate ones get
 * no reminders): active, unacknowledged, not suppressed by a dependency, their
 * monitor still offline and outside a maintenance window, with somewhere to send them: a channel
 * attached (the monitor's own email is one, while the owner's preference lets it send). Joined with the latest
 * reminder and the escalation.
 */
const STATE_SQL = `
  SELECT n.id AS notification_id, n.alert_id AS incident_id, n.started_at,
         m.reminder_interval_minutes, m.escalation_after_minutes, m.escalation_recipients,
         COALESCE(p.email_notifications, true) AS email_notifications, ${MEMBER_EMAILS}, ${ATTACHED_CHANNELS}, ${ESCALATION_CHANNELS}, r.round AS last_round, r.due_at AS last_due,
         EXISTS (SELECT 1 FROM notification_followups e WHERE e.notification_id = n.id AND e.kind = 'escalation') AS escalated
    FROM notifications n
    JOIN monitors m ON m.id = n.monitor_id
    LEFT JOIN user_preferences p ON p.user_id = m.owner_id
    LEFT JOIN LATERAL (
      SELECT f.round, f.due_at FROM notification_followups f
       WHERE f.notification_id = n.id AND f.kind = 'reminder' ORDER BY f.round DESC LIMIT 1
    ) r ON true
   WHERE n.type = 'downtime'
     AND n.status = 'active' AND NOT n.acknowledged AND NOT n.suppressed
     AND m.status = 'offline' AND NOT m.in_maintenance
     -- The monitor's own email counts while the owner's email_notifications preference is on.
     AND EXISTS (SELECT 1 FROM monitor_channels mc JOIN channels c ON c.id = mc.channel_id
                  WHERE mc.monitor_id = m.id AND (NOT (c.monitor_id IS NOT NULL AND c.type = 'email') OR COALESCE(p.email_notifications, true))
                 UNION ALL SELECT 1 FROM monitor_escalation_channels ec WHERE ec.monitor_id = m.id)`;

const toCandidate = (row: Row): FollowupCandidate => ({
  notificationId: row.notification_id,
  incidentId: row.incident_id,
  startedAt: row.started_at,
  reminderIntervalMinutes: row.reminder_interval_minutes,
  lastReminder: row.last_round === null || row.last_due === null ? null : { round: row.last_round, dueAt: row.last_due },
  escalationAfterMinutes: row.escalation_after_minutes,
  hasEscalationRecipients: row.escalation_recipients.length > 0 || row.escalation_channels.length > 0,
  isEscalated: row.escalated,
  emailNotifications: row.email_notifications,
  channels: row.channels,
  memberEmails: row.member_emails,
  escalationRecipients: row.escalation_recipients,
  escalationChannels: row.escalation_channels,
});

/**
 * Downtimes with a reminder or the escalation due at `now` (the same rule as `dueFollowups`,
 * in SQL so a sweep reads only those), oldest first. Read without locks: `lockFollowupState`
 * decides again under the row lock.
 */
export async function listFollowupCandidates(db: EntityManager, now: Date, limit: number): Promise<FollowupCandidate[]> {
  const rows = await queryRows<Row>(
    db,
    `SELECT s.* FROM (${STATE_SQL}) s
      WHERE (s.reminder_interval_minutes IS NOT NULL
             AND COALESCE(s.last_due, s.started_at) + s.reminder_interval_minutes * interval '1 minute' <= $1)
         OR (s.escalation_after_minutes IS NOT NULL AND (cardinality(s.escalation_recipients) > 0 OR json_array_length(s.escalation_channels) > 0) AND NOT s.escalated
             AND s.started_at + s.escalation_after_minutes * interval '1 minute' <= $1)
      ORDER BY s.notification_id
      LIMIT $2`,
    [now, limit],
  );
  return rows.map(toCandidate);
}

/**
 * The downtime's state with its notification row share-locked until the transaction ends, or null
 * when it no longer may be followed up. Acknowledging and resolving update that row, so they wait
 * for a follow-up being recorded, and a follow-up recorded after them sees them.
 */
export async function lockFollowupState(tx: EntityManager, notificationId: number): Promise<FollowupCandidate | null> {
  const [row] = await queryRows<Row>(tx, `${STATE_SQL} AND n.id = $1 FOR SHARE OF n`, [notificationId]);
  return row ? toCandidate(row) : null;
}

/**
 * Claims one follow-up: true for the one caller (of any number of sweeps and notifiers) whose
 * insert created it. The primary key (notification, kind, round) is what makes it exactly once.
 */
export async function recordFollowup(tx: EntityManager, notificationId: number, followup: DueFollowup): Promise<boolean> {
  const rows = await queryRows(
    tx,
    `INSERT INTO notification_followups (notification_id, kind, round, due_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (notification_id, kind, round) DO NOTHING
     RETURNING round`,
    [notificationId, followup.kind, followup.round, followup.dueAt],
  );
  return rows.length > 0;
}

/**
 * A reminder still unsent when the next one is recorded (its provider failing or paused) is not
 * sent any more: the newer one says the same with a truer duration, and a provider coming back
 * after an hour should not deliver a burst of twelve reminders.
 */
export async function supersedeEarlierReminders(tx: EntityManager, notificationId: number, round: number): Promise<void> {
  await queryRows(
    tx,
    `UPDATE notification_deliveries
        SET status = 'cancelled', claim_token = NULL, lease_until = NULL, last_error = $3
      WHERE notification_id = $1 AND kind = 'reminder' AND round < $2 AND status IN ('pending', 'ambiguous')`,
    [notificationId, round, `not sent: superseded by reminder ${round}`],
  );
}
