import { queryRows, type EntityManager, type NotificationType } from '@uptime/db';
import type { AlertRef } from './alert';

/**
 * Suppresses a just-created downtime notification while a monitor its monitor depends on
 * (`depends_on`, direct parents only) is offline: it stays recorded, with the parents that
 * suppressed it, and the caller queues no delivery (docs/alert-rules.md). Runs in the
 * transaction that created the notification, so a redelivered event, which creates nothing,
 * never reconsiders it. Returns the offline parents; empty means send as usual.
 */
export async function suppressIfParentOffline(tx: EntityManager, notificationId: number, monitorId: number): Promise<number[]> {
  const rows = await queryRows<{ suppressed_by: number[] }>(
    tx,
    `UPDATE notifications n SET suppressed = true, suppressed_by = p.ids
       FROM (SELECT array_agg(parent.id ORDER BY parent.id) AS ids
               FROM monitors child JOIN monitors parent ON parent.id = ANY(child.depends_on)
              WHERE child.id = $2 AND parent.status = 'offline') p
      WHERE n.id = $1 AND p.ids IS NOT NULL
     RETURNING n.suppressed_by`,
    [notificationId, monitorId],
  );
  return rows[0]?.suppressed_by ?? [];
}

/**
 * The notification of an alert's end (a recovery) follows the alert's own (its downtime):
 * suppressed (and not sent) exactly when that one was, so nobody hears of the end of an outage
 * they never heard of, and whoever heard of it hears the end.
 */
export async function inheritSuppression(tx: EntityManager, endId: number, ref: AlertRef, type: NotificationType): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    tx,
    `UPDATE notifications r SET suppressed = true, suppressed_by = d.suppressed_by
       FROM notifications d
      WHERE r.id = $1 AND d.alert_id = $2 AND d.type = $3 AND d.suppressed
     RETURNING r.id`,
    [endId, ref.id, type],
  );
  return rows.length > 0;
}
