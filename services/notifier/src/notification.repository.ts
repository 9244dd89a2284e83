import { NOTIFICATION_DELIVERY_FLAGS, queryRows, type DataSource, type DeliveryPhase, type EntityManager, type NotificationType } from '@uptime/db';
import type { AlertAudience, AlertContext, AlertRef } from './alert';
import { ALERT_DURATION } from './alert.repository';
import { kindOf } from './alert-kinds';
import { queueChannelDeliveries } from './channel-deliveries';
import { inheritSuppression, suppressIfParentOffline } from './dependency-suppression.repository';

/** The notifications one call created, by type (`notifications_created_total{type}`). */
export type RecordedNotifications = { id: number; type: NotificationType }[];

/**
 * Brings the notifications of an alert in line with the alert's row, whichever event (the one that
 * opened it or the one that closed it) asks and however often, for every kind alike
 * (docs/notifications.md); what differs between kinds is their AlertKindSpec (alert-kinds/):
 * - the notification the alert opens, unique per (alert, type), active while the alert is open,
 *   and its `opened` messages, unless a monitor it depends on is offline (the kind says whether
 *   that matters) or it was created after its alert ended and the kind says that is not worth it;
 * - once the alert is resolved, that notification resolved with its end and duration (one
 *   resolved by hand keeps its own), then what the kind's end tells: nothing, a `resolved` message
 *   ("no longer slow"), or a notification of its own (`recovery`, not after a downtime resolved by
 *   hand, suppressed when the downtime was).
 *
 * Every write is idempotent (`ON CONFLICT DO NOTHING`, `WHERE status = 'active'`), and the alert's
 * state is read from its row inside each statement rather than from `alert`, so of any number of
 * redeliveries and notifiers exactly one creates and one resolves, only that one queues messages,
 * and an event handled late or out of order cannot leave an active notification behind for a
 * closed alert. A notification and its deliveries are written in one transaction: a crash cannot
 * leave a notification whose messages were never queued, and a retry never queues them twice.
 */
export function recordAlertNotifications(dataSource: DataSource, alert: AlertContext): Promise<RecordedNotifications> {
  const kind = kindOf(alert);
  return dataSource.transaction(async (tx) => {
    const recorded: RecordedNotifications = [];
    const created = await insertNotification(tx, alert, kind.notificationType, kind.message(alert), kind.errorDetails(alert));
    if (created !== null) {
      recorded.push({ id: created.id, type: kind.notificationType });
      const isSuppressed = kind.isSuppressedByDependencies && (await suppressIfParentOffline(tx, created.id, alert.monitorId)).length > 0;
      if (!isSuppressed && (!created.resolved || kind.opensWhenOver)) await queueAllDeliveries(tx, created.id, alert);
    }
    if (alert.resolvedAt === null) return recorded;

    const resolvedId = await resolveNotification(tx, alert.ref, kind.notificationType);
    const { end } = kind;
    if (end.tells === 'resolved-message') {
      // Ended by this call: resolved now, or created already resolved (handled after its end).
      const endedId = resolvedId ?? (created?.resolved ? created.id : null);
      if (endedId !== null && end.isSent(alert)) await queueAllDeliveries(tx, endedId, alert, 'resolved');
    } else if (end.tells === 'notification') {
      const endId = await insertEndNotification(tx, alert, kind.notificationType, end.type, end.message(alert));
      if (endId !== null) {
        recorded.push({ id: endId, type: end.type });
        const isSuppressed = await inheritSuppression(tx, endId, alert.ref, kind.notificationType);
        if (!isSuppressed && end.isSent(alert)) await queueAllDeliveries(tx, endId, alert);
      }
    }
    return recorded;
  });
}

/** The alert's own notification of `type`, as its row is now; null when it existed already. */
async function insertNotification(
  tx: EntityManager,
  alert: AlertContext,
  type: NotificationType,
  message: string,
  errorDetails: unknown,
): Promise<{ id: number; resolved: boolean } | null> {
  const { ref } = alert;
  const rows = await queryRows<{ id: number; status: string }>(
    tx,
    `INSERT INTO notifications (user_id, monitor_id, alert_id, type, status, message, started_at, resolved_at, duration, error_details)
     SELECT $2, a.monitor_id, a.id, $3,
            CASE WHEN a.resolved_at IS NULL THEN 'active' ELSE 'resolved' END,
            $4, a.started_at, a.resolved_at,
            CASE WHEN a.resolved_at IS NULL THEN NULL ELSE ${ALERT_DURATION} END,
            $5::jsonb
       FROM alerts a
      WHERE a.id = $1
     ON CONFLICT (alert_id, type) DO NOTHING
     RETURNING id, status`,
    [ref.id, alert.ownerId, type, message, errorDetails === null ? null : JSON.stringify(errorDetails)],
  );
  const row = rows[0];
  return row ? { id: row.id, resolved: row.status === 'resolved' } : null;
}

/** Only an active notification: one resolved by hand keeps its own resolved_at. Returns the one it resolved. */
async function resolveNotification(tx: EntityManager, ref: AlertRef, type: NotificationType): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    tx,
    `UPDATE notifications n
        SET status = 'resolved', resolved_at = a.resolved_at, duration = ${ALERT_DURATION}
       FROM alerts a
      WHERE n.alert_id = $1 AND n.type = $2 AND n.status = 'active'
        AND a.id = n.alert_id AND a.resolved_at IS NOT NULL
     RETURNING n.id`,
    [ref.id, type],
  );
  return rows[0]?.id ?? null;
}

/** The notification of the alert's end (`endType`), unless its own notification (`type`) was resolved by hand. */
async function insertEndNotification(tx: EntityManager, alert: AlertContext, type: NotificationType, endType: NotificationType, message: string): Promise<number | null> {
  const { ref } = alert;
  const rows = await queryRows<{ id: number }>(
    tx,
    `INSERT INTO notifications (user_id, monitor_id, alert_id, type, status, message, started_at, resolved_at, duration)
     SELECT $2, a.monitor_id, a.id, $3, 'resolved', $4, a.resolved_at, a.resolved_at, ${ALERT_DURATION}
       FROM alerts a
      WHERE a.id = $1 AND a.resolved_at IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM notifications o
           WHERE o.alert_id = a.id AND o.type = $5 AND o.resolved_manually
        )
     ON CONFLICT (alert_id, type) DO NOTHING
     RETURNING id`,
    [ref.id, alert.ownerId, endType, message, type],
  );
  return rows[0]?.id ?? null;
}

/**
 * One delivery per attached channel and recipient, as the monitor's channels are right now: the
 * monitor's own email, Slack and webhook are channels like the others (docs/channels.md).
 */
async function queueAllDeliveries(tx: EntityManager, notificationId: number, audience: AlertAudience, phase: DeliveryPhase = 'opened'): Promise<void> {
  await queueChannelDeliveries(tx, notificationId, audience, { phase });
}

/** A notification row with the fields of `GET /notifications/{id}`, without its deliveries. */
export interface NotificationRow {
  id: number;
  monitor_id: number;
  type: NotificationType;
  status: string;
  message: string;
  started_at: Date;
  resolved_at: Date | null;
  duration: number | null;
  notification_method: string;
  acknowledged: boolean;
  acknowledged_at: Date | null;
  email_sent_at: Date | null;
  email_logged_only: boolean;
  error_details: unknown;
  created_at: Date;
  possible_duplicate: boolean;
  suppressed: boolean;
  suppressed_by: number[];
}

/** The notification `notificationId`, or null when it is gone. */
export async function loadNotification(db: EntityManager, notificationId: number): Promise<NotificationRow | null> {
  const [row] = await queryRows<NotificationRow>(
    db,
    `SELECT id, monitor_id, type, status, message, started_at, resolved_at, duration, notification_method, acknowledged,
            acknowledged_at, email_sent_at, error_details, created_at, suppressed, suppressed_by,
            ${NOTIFICATION_DELIVERY_FLAGS.possibleDuplicate} AS possible_duplicate,
            ${NOTIFICATION_DELIVERY_FLAGS.emailLoggedOnly} AS email_logged_only
       FROM notifications n WHERE id = $1`,
    [notificationId],
  );
  return row ?? null;
}
