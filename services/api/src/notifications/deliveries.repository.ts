import type { DataSource, DeliveryChannel, DeliveryKind, DeliveryPhase, DeliveryStatus } from '@uptime/db';

/** One delivery of a notification as the API reads it. */
export interface DeliveryView {
  channel: DeliveryChannel;
  kind: DeliveryKind;
  round: number;
  phase: DeliveryPhase;
  recipient: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  sentAt: Date | null;
  error: string | null;
  possibleDuplicate: boolean;
  loggedOnly: boolean;
}

/**
 * The deliveries of one notification (already scoped to its owner by the caller): its own messages
 * (email first), its escalation, and of its reminders only the latest round, so the list stays
 * bounded however long a downtime reminds (docs/alert-rules.md).
 */
export function listDeliveries(ds: DataSource, notificationId: number): Promise<DeliveryView[]> {
  return ds.query(
    `SELECT d.channel, kind, round, phase,
            -- A delivery through the monitor's own webhook shows its URL, as before it was a channel
            -- (docs/channels.md, "The monitor's own channels"); the URL is not secret, the key is.
            CASE WHEN c.monitor_id IS NOT NULL AND c.type = 'webhook' AND c.config ? 'url' THEN c.config ->> 'url' ELSE d.recipient END AS recipient,
            status, attempts, last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt",
            last_error AS error, possible_duplicate AS "possibleDuplicate", logged_only AS "loggedOnly"
       FROM notification_deliveries d
       LEFT JOIN channels c ON c.id = d.channel_id
      WHERE notification_id = $1
        AND (kind <> 'reminder'
             OR round = (SELECT max(round) FROM notification_deliveries WHERE notification_id = $1 AND kind = 'reminder'))
      ORDER BY CASE kind WHEN 'notice' THEN 0 WHEN 'escalation' THEN 1 ELSE 2 END, phase = 'resolved',
               CASE d.channel WHEN 'email' THEN 0 WHEN 'slack' THEN 1 ELSE 2 END, d.id`,
    [notificationId],
  );
}
