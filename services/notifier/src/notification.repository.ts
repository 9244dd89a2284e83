import { queryRows, type DataSource, type DeliveryPhase, type EntityManager, type NotificationErrorDetails, type NotificationType } from '@uptime/db';
import type { AlertAudience } from './episode.repository';
import { INCIDENT_DURATION_SQL, type IncidentContext } from './incident.repository';
import { downtimeMessage, recoveryMessage } from './incident-text';
import { queueDeliveries } from './deliveries/delivery.repository';
import { inheritSuppression, suppressIfParentOffline } from './dependency-suppression.repository';
import { recipientsOf } from './recipients';

export interface RecordedNotifications {
  /** Ids of the notifications this call created; null when one existed already or is not due. */
  downtimeId: number | null;
  recoveryId: number | null;
}

/**
 * Brings the notifications of an incident in line with the incident row, whichever event (offline
 * or online) asks and however often: a downtime notification, active while the incident is open,
 * resolved with the incident's end and duration once it is closed; and, once closed, a recovery
 * notification unless the downtime was resolved by hand (docs/notifications.md).
 *
 * Every write is idempotent (unique incident_id + type, `WHERE status = 'active'`), and state is
 * read from the incidents row inside each statement rather than from `ctx`, so an event handled
 * late or out of order cannot leave an active notification behind for a closed incident.
 *
 * A notification and its deliveries are written in one transaction: a crash cannot leave a
 * notification whose messages were never queued, and a retry never queues them twice.
 */
export function recordIncidentNotifications(dataSource: DataSource, ctx: IncidentContext): Promise<RecordedNotifications> {
  return dataSource.transaction(async (tx) => {
    const downtimeId = await insertDowntime(tx, ctx);
    if (downtimeId !== null && (await suppressIfParentOffline(tx, downtimeId, ctx.monitorId)).length === 0) await queueAllDeliveries(tx, downtimeId, ctx);
    if (ctx.resolvedAt === null) return { downtimeId, recoveryId: null };

    await resolveDowntime(tx, ctx.incidentId);
    const recoveryId = await insertRecovery(tx, ctx);
    if (recoveryId !== null && !(await inheritSuppression(tx, recoveryId, ctx.incidentId)) && ctx.alertOnRecovery) await queueAllDeliveries(tx, recoveryId, ctx);
    return { downtimeId, recoveryId };
  });
}

async function insertDowntime(tx: EntityManager, ctx: IncidentContext): Promise<number | null> {
  const details: NotificationErrorDetails = {
    status_code: ctx.statusCode,
    response_time: ctx.responseTime,
    error_message: ctx.error ?? '',
  };
  const rows = await queryRows<{ id: number }>(
    tx,
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at, resolved_at, duration, error_details)
     SELECT $2, i.monitor_id, i.id, 'downtime',
            CASE WHEN i.resolved_at IS NULL THEN 'active' ELSE 'resolved' END,
            $3, i.started_at, i.resolved_at,
            CASE WHEN i.resolved_at IS NULL THEN NULL ELSE ${INCIDENT_DURATION_SQL} END,
            $4::jsonb
       FROM incidents i
      WHERE i.id = $1
     ON CONFLICT (incident_id, type) DO NOTHING
     RETURNING id`,
    [ctx.incidentId, ctx.ownerId, downtimeMessage(ctx), JSON.stringify(details)],
  );
  return rows[0]?.id ?? null;
}

/** Only an active downtime: one resolved by hand keeps its own resolved_at. */
async function resolveDowntime(tx: EntityManager, incidentId: number): Promise<void> {
  await queryRows(
    tx,
    `UPDATE notifications n
        SET status = 'resolved', resolved_at = i.resolved_at, duration = ${INCIDENT_DURATION_SQL}
       FROM incidents i
      WHERE n.incident_id = $1 AND n.type = 'downtime' AND n.status = 'active'
        AND i.id = n.incident_id AND i.resolved_at IS NOT NULL`,
    [incidentId],
  );
}

async function insertRecovery(tx: EntityManager, ctx: IncidentContext): Promise<number | null> {
  const rows = await queryRows<{ id: number }>(
    tx,
    `INSERT INTO notifications (user_id, monitor_id, incident_id, type, status, message, started_at, resolved_at, duration)
     SELECT $2, i.monitor_id, i.id, 'recovery', 'resolved', $3, i.resolved_at, i.resolved_at, ${INCIDENT_DURATION_SQL}
       FROM incidents i
      WHERE i.id = $1 AND i.resolved_at IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM notifications d
           WHERE d.incident_id = i.id AND d.type = 'downtime' AND d.resolved_manually
        )
     ON CONFLICT (incident_id, type) DO NOTHING
     RETURNING id`,
    [ctx.incidentId, ctx.ownerId, recoveryMessage(ctx)],
  );
  return rows[0]?.id ?? null;
}

/** One delivery per enabled channel and recipient, as the monitor's settings are right now. */
export async function queueAllDeliveries(tx: EntityManager, notificationId: number, ctx: AlertAudience, phase: DeliveryPhase = 'opened'): Promise<void> {
  if (ctx.emailEnabled) await queueDeliveries(tx, notificationId, 'email', recipientsOf(ctx), { phase });
  if (ctx.slackWebhookUrl) await queueDeliveries(tx, notificationId, 'slack', [ctx.slackWebhookUrl], { phase });
  if (ctx.webhook) await queueDeliveries(tx, notificationId, 'webhook', [ctx.webhook.url], { phase });
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
            EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id AND d.possible_duplicate) AS possible_duplicate
       FROM notifications n WHERE id = $1`,
    [notificationId],
  );
  return row ?? null;
}
