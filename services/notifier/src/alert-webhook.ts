import type { DeliveryPhase, EntityManager, NotificationType } from '@uptime/db';
import type { WebhookPayload } from './channels/webhook';
import type { AlertContext } from './alert';
import { kindOf } from './alert-kinds';
import type { WebhookEvent } from './channels/webhook';
import { loadNotification } from './notification.repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The `event` of a delivery: its notification's type, or what the kind calls its `resolved` message (`slow_resolved`). */
function eventOf(alert: AlertContext, type: NotificationType, phase: DeliveryPhase): WebhookEvent {
  const { end } = kindOf(alert);
  return phase === 'resolved' && end.tells === 'resolved-message' ? end.webhookEvent : type;
}

/**
 * The webhook body of a delivery: its event, the notification object with the fields and names of
 * `GET /notifications/{id}` (without its deliveries), and the monitor.
 */
export async function composeAlertWebhook(
  db: EntityManager,
  target: { notificationId: number; phase: DeliveryPhase },
  ctx: AlertContext,
): Promise<WebhookPayload> {
  const { notificationId } = target;
  const n = await loadNotification(db, notificationId);
  if (!n) throw new Error(`notification ${notificationId} is gone`);
  return {
    event: eventOf(ctx, n.type, target.phase),
    notification: {
      id: n.id,
      monitor_id: n.monitor_id,
      monitor_name: ctx.monitorName,
      monitor_url: ctx.monitorUrl,
      type: n.type,
      message: n.message,
      status: n.status,
      started_at: n.started_at.toISOString(),
      resolved_at: iso(n.resolved_at),
      duration: n.duration,
      notification_method: n.notification_method,
      acknowledged: n.acknowledged,
      acknowledged_at: iso(n.acknowledged_at),
      email_sent_at: iso(n.email_sent_at),
      email_logged_only: n.email_logged_only,
      error_details: n.error_details,
      created_at: n.created_at.toISOString(),
      possible_duplicate: n.possible_duplicate,
      suppressed: n.suppressed,
      suppressed_by: n.suppressed_by,
    },
    monitor: { id: ctx.monitorId, name: ctx.monitorName, url: ctx.monitorUrl },
  };
}
