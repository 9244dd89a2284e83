import type { DeliveryPhase, EntityManager } from '@uptime/db';
import type { WebhookPayload } from './channels/webhook';
import type { AlertAudience } from './episode.repository';
import { webhookEventOf } from './episode-messages';
import { loadNotification } from './notification.repository';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * The webhook body of a delivery: its event, the notification object with the fields and names of
 * `GET /notifications/{id}` (without its deliveries), and the monitor.
 */
export async function composeIncidentWebhook(
  db: EntityManager,
  target: { notificationId: number; phase: DeliveryPhase },
  ctx: Pick<AlertAudience, 'monitorId' | 'monitorName' | 'monitorUrl'>,
): Promise<WebhookPayload> {
  const { notificationId } = target;
  const n = await loadNotification(db, notificationId);
  if (!n) throw new Error(`notification ${notificationId} is gone`);
  return {
    event: webhookEventOf(n.type, target.phase),
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
      error_details: n.error_details,
      created_at: n.created_at.toISOString(),
      possible_duplicate: n.possible_duplicate,
      suppressed: n.suppressed,
      suppressed_by: n.suppressed_by,
    },
    monitor: { id: ctx.monitorId, name: ctx.monitorName, url: ctx.monitorUrl },
  };
}
