import type { DataSource, DeliveryChannel, DeliveryPhase, DeliveryStatus } from '@uptime/db';

/** One delivery of a notification as the API reads it. */
export interface DeliveryView {
  channel: DeliveryChannel;
  phase: DeliveryPhase;
  recipient: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  error: string | null;
  possibleDuplicate: boolean;
}

/** The deliveries of one notification (already scoped to its owner by the caller), email first. */
export function listDeliveries(ds: DataSource, notificationId: number): Promise<DeliveryView[]> {
  return ds.query(
    `SELECT channel, phase, recipient, status, attempts, last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt",
            last_error AS error, possible_duplicate AS "possibleDuplicate"
       FROM notification_deliveries
      WHERE notification_id = $1
      ORDER BY phase = 'resolved', CASE channel WHEN 'email' THEN 0 WHEN 'slack' THEN 1 ELSE 2 END, id`,
    [notificationId],
  );
}
