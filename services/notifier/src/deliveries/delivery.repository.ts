import { queryRows, type DataSource, type DeliveryChannel, type DeliveryKind, type DeliveryPhase, type EntityManager, type FollowupKind, type NotificationType } from '@uptime/db';
import { alertRef, type AlertRef } from '../alert';
import type { SendFailureKind } from '../channels/send-error';

/** A delivery as its sender holds it: the lease is theirs while `claimToken` is on the row. */
export interface ClaimedDelivery {
  id: number;
  notificationId: number;
  channel: DeliveryChannel;
  /** The notification itself (`opened`) or its end (`resolved`). */
  phase: DeliveryPhase;
  recipient: string;
  /** The channel it goes through (docs/channels.md); null only on a delivery recorded before channels. */
  channelId: number | null;
  type: NotificationType;
  /** The notification's own message, a reminder or the escalation (docs/alert-rules.md). */
  kind: DeliveryKind;
  /** The reminder's number; 1 for the escalation, 0 for a notice. */
  round: number;
  /** A follow-up's due time (what "still down for" counts to); null for a notice. */
  followupDueAt: Date | null;
  /** The same on every retry (the webhook's X-Uptime-Delivery). */
  deliveryUid: string;
  claimToken: string;
  /** Counting this one. */
  attempts: number;
  createdAt: Date;
  /**
   * When what the delivery reports happened, where its latency is counted from: the status change
   * (the notification's start), its end for a `resolved` message, its acknowledgement for an
   * `acknowledged` one, a follow-up's due time.
   */
  changedAt: Date;
  /** True when this claim overtook a lease that expired: its sender may have sent it. */
  tookOverExpiredLease: boolean;
}

/**
 * What recording a leased delivery's outcome needs: alerts' deliveries and a status page
 * subscriber's (which has no notification) alike.
 */
export type LeasedDelivery = Pick<ClaimedDelivery, 'id' | 'channel' | 'recipient' | 'claimToken' | 'attempts' | 'createdAt' | 'changedAt' | 'tookOverExpiredLease'> & {
  notificationId: number | null;
};

/** A delivery still to be sent, as the job, the sweepers and `attemptDelivery` take it. */
export interface OpenDeliveryRow {
  id: number;
  channel: DeliveryChannel;
  recipient: string;
  /** The channel it goes through; null only on a delivery recorded before channels. */
  channelId: number | null;
  kind: DeliveryKind;
}

/** Which message of a notification a delivery carries, and the channel it goes through. */
export interface QueuedMessage {
  phase?: DeliveryPhase;
  followup?: { kind: FollowupKind; round: number };
  channelId?: number;
}

/**
 * One pending delivery per recipient of a channel, of one message of the notification: its
 * `opened` notice or `resolved` end (phase), or one follow-up of a downtime (a reminder round, the
 * escalation; always `opened`). The unique key (notification, kind, round, phase, channel,
 * recipient) makes repeats no-ops. Returns the deliveries it created.
 */
export async function queueDeliveries(
  tx: EntityManager,
  notificationId: number,
  channel: DeliveryChannel,
  recipients: string[],
  message: QueuedMessage = {},
): Promise<OpenDeliveryRow[]> {
  if (recipients.length === 0) return [];
  return queryRows<OpenDeliveryRow>(
    tx,
    `INSERT INTO notification_deliveries (notification_id, channel, recipient, kind, round, phase, channel_id)
     SELECT $1, $2, unnest($3::text[]), $4::varchar, $5::int, $6::varchar, $7::int
     ON CONFLICT (notification_id, kind, round, phase, channel, recipient) DO NOTHING
     RETURNING id, channel, recipient, channel_id AS "channelId", kind`,
    [notificationId, channel, recipients, message.followup?.kind ?? 'notice', message.followup?.round ?? 0, message.phase ?? 'opened', message.channelId ?? null],
  );
}

/** The alert's deliveries not finished yet, downtime before recovery, a start before its end, email first. */
export function listOpenDeliveries(db: DataSource, alert: AlertRef): Promise<OpenDeliveryRow[]> {
  return queryRows(
    db.manager,
    `SELECT d.id, d.channel, d.recipient, d.channel_id AS "channelId", d.kind
       FROM notification_deliveries d
       JOIN notifications n ON n.id = d.notification_id
      WHERE n.alert_id = $1 AND d.status IN ('pending', 'sending', 'ambiguous')
      ORDER BY CASE n.type WHEN 'downtime' THEN 0 ELSE 1 END, d.phase = 'resolved', d.id`,
    [alert.id],
  );
}

/**
 * Deliveries some notifier should send now, whatever became of their job: due retries, and leases
 * that expired (their sender died or lost the database).
 */
export async function listDueDeliveries(db: DataSource, limit: number): Promise<(OpenDeliveryRow & { alert: AlertRef })[]> {
  const rows = await queryRows<OpenDeliveryRow & { alert_id: number }>(
    db.manager,
    `SELECT d.id, d.channel, d.recipient, d.channel_id AS "channelId", d.kind, n.alert_id
       FROM notification_deliveries d
       JOIN notifications n ON n.id = d.notification_id
      WHERE d.status IN ('pending', 'sending', 'ambiguous')
        AND ((d.status <> 'sending' AND d.next_attempt_at <= now()) OR (d.status = 'sending' AND d.lease_until < now()))
      ORDER BY d.next_attempt_at
      LIMIT $1`,
    [limit],
  );
  return rows.map(({ alert_id, ...open }) => ({ ...open, alert: alertRef(alert_id) }));
}

interface ClaimRow {
  id: number;
  notification_id: number;
  channel: DeliveryChannel;
  phase: DeliveryPhase;
  recipient: string;
  channel_id: number | null;
  type: NotificationType;
  kind: DeliveryKind;
  round: number;
  followup_due_at: Date | null;
  delivery_uid: string;
  claim_token: string;
  attempts: number;
  created_at: Date;
  started_at: Date;
  resolved_at: Date | null;
  acknowledged_at: Date | null;
  old_status: string;
}

/**
 * Takes the delivery for `leaseMs` by one conditional UPDATE, so of any number of notifiers one
 * wins. Open deliveries are taken whenever `isDue` is false (a job's own retry paces itself),
 * only once their `next_attempt_at` has come otherwise (the sweeper); a `sending` one only once
 * its lease expired. A follow-up (reminder, escalation) is taken only while its downtime is still
 * active and unacknowledged (see `cancelOutlivedFollowup`); an `acknowledged` message only once
 * the message it acknowledges is no longer open on its channel.
 */
/**
 * The `SET` and the condition of a claim, shared by alerts' deliveries and status page
 * subscribers' (`o` is the row locked `FOR UPDATE`, `$1` its id, `$2` the lease in ms, `$3`
 * onlyIfDue): an open delivery is taken at once unless only due ones are, a `sending` one only
 * once its lease expired.
 */
export const CLAIM_SET = `status = 'sending', claim_token = gen_random_uuid(), lease_until = now() + $2 * interval '1 millisecond',
            attempts = d.attempts + 1, last_attempt_at = now(),
            possible_duplicate = d.possible_duplicate OR o.status = 'sending'`;
export const CLAIMABLE = `((o.status IN ('pending', 'ambiguous') AND (NOT $3 OR d.next_attempt_at <= now()))
          OR (o.status = 'sending' AND d.lease_until < now()))`;

export async function claimDelivery(db: DataSource, id: number, leaseMs: number, options: { onlyIfDue: boolean }): Promise<ClaimedDelivery | null> {
  const [row] = await queryRows<ClaimRow>(
    db.manager,
    `UPDATE notification_deliveries d
        SET ${CLAIM_SET}
       FROM (SELECT id, status FROM notification_deliveries WHERE id = $1 FOR UPDATE) o, notifications n
      WHERE d.id = o.id AND n.id = d.notification_id
        AND ${CLAIMABLE}
        AND (d.kind = 'notice' OR (n.status = 'active' AND NOT n.acknowledged))
        -- An acknowledgement follows the message it acknowledges on its channel (PagerDuty's
        -- trigger before its acknowledge), however their retries fall.
        AND (d.phase <> 'acknowledged' OR NOT EXISTS (
              SELECT 1 FROM notification_deliveries t
               WHERE t.notification_id = d.notification_id AND t.channel_id = d.channel_id AND t.phase = 'opened'
                 AND t.kind = 'notice' AND t.status IN ('pending', 'sending', 'ambiguous')))
      RETURNING d.id, d.notification_id, d.channel, d.phase, d.recipient, d.channel_id, n.type, d.kind, d.round,
                (SELECT f.due_at FROM notification_followups f
                  WHERE f.notification_id = d.notification_id AND f.kind = d.kind AND f.round = d.round) AS followup_due_at,
                d.delivery_uid, d.claim_token, d.attempts, d.created_at, n.started_at, n.resolved_at, n.acknowledged_at, o.status AS old_status`,
    [id, leaseMs, options.onlyIfDue],
  );
  if (!row) return null;
  return {
    id: row.id,
    notificationId: row.notification_id,
    channel: row.channel,
    phase: row.phase,
    recipient: row.recipient,
    channelId: row.channel_id,
    type: row.type,
    kind: row.kind,
    round: row.round,
    followupDueAt: row.followup_due_at,
    deliveryUid: row.delivery_uid,
    claimToken: row.claim_token,
    attempts: row.attempts,
    createdAt: row.created_at,
    changedAt: row.followup_due_at ?? { opened: null, resolved: row.resolved_at, acknowledged: row.acknowledged_at }[row.phase] ?? row.started_at,
    tookOverExpiredLease: row.old_status === 'sending',
  };
}

/** Extends the lease while the send runs; false once another sender took it over. */
export async function renewLease(db: DataSource, d: Pick<LeasedDelivery, 'id' | 'claimToken'>, leaseMs: number): Promise<boolean> {
  const rows = await queryRows(
    db.manager,
    `UPDATE notification_deliveries SET lease_until = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND claim_token = $2 AND status = 'sending' RETURNING id`,
    [d.id, d.claimToken, leaseMs],
  );
  return rows.length > 0;
}

/**
 * The receiver has it (`loggedOnly`: the log has it, no mail transport being configured). Recorded whoever holds the lease now: a sender that was overtaken still
 * knows its message arrived. `email_sent_at` keeps its meaning: the first email accepted.
 */
export async function recordSent(db: DataSource, d: LeasedDelivery, how: { loggedOnly: boolean } = { loggedOnly: false }): Promise<void> {
  await db.transaction(async (tx) => {
    await queryRows(
      tx,
      `UPDATE notification_deliveries
          SET status = 'sent', sent_at = now(), last_error = NULL, claim_token = NULL, lease_until = NULL, logged_only = $2
        WHERE id = $1 AND status <> 'sent'`,
      [d.id, how.loggedOnly],
    );
    if (d.channel === 'email' && d.notificationId !== null) {
      await queryRows(tx, `UPDATE notifications SET email_sent_at = now() WHERE id = $1 AND email_sent_at IS NULL`, [d.notificationId]);
    }
  });
}

export interface FailureRecord {
  kind: SendFailureKind;
  error: string;
  /** True when no further attempt will be made: the delivery becomes `failed`. */
  isFinal: boolean;
  nextAttemptAt: Date;
}

/** The attempt failed; only the lease holder records it (a late, overtaken sender does not). */
export async function recordFailure(db: DataSource, d: Pick<LeasedDelivery, 'id' | 'claimToken'>, f: FailureRecord): Promise<void> {
  const status = f.isFinal ? 'failed' : f.kind === 'ambiguous' ? 'ambiguous' : 'pending';
  await queryRows(
    db.manager,
    `UPDATE notification_deliveries
        SET status = $3, last_error = $4, next_attempt_at = $5, claim_token = NULL, lease_until = NULL,
            possible_duplicate = possible_duplicate OR $6
      WHERE id = $1 AND claim_token = $2`,
    [d.id, d.claimToken, status, f.error.slice(0, 2000), f.nextAttemptAt, f.kind === 'ambiguous'],
  );
}

/**
 * Ends a reminder or escalation its downtime outlived, one acknowledged or ended (by recovery or
 * by hand) before it went out: `cancelled`, never sent. Returns false when it is still wanted, or
 * when another sender holds it now. One that is mid-send when the acknowledgement arrives still
 * arrives.
 */
export async function cancelOutlivedFollowup(db: DataSource, id: number): Promise<boolean> {
  const rows = await queryRows(
    db.manager,
    `UPDATE notification_deliveries d
        SET status = 'cancelled', claim_token = NULL, lease_until = NULL,
            last_error = 'not sent: the downtime was acknowledged or ended first'
       FROM notifications n
      WHERE d.id = $1 AND n.id = d.notification_id AND d.kind <> 'notice'
        AND (d.status IN ('pending', 'ambiguous') OR (d.status = 'sending' AND d.lease_until < now()))
        AND (n.status <> 'active' OR n.acknowledged)
     RETURNING d.id`,
    [id],
  );
  return rows.length > 0;
}

/** Puts an open delivery off until `until` without attempting it (its provider asked to wait). */
export async function postponeDelivery(db: DataSource, id: number, until: Date): Promise<void> {
  await queryRows(
    db.manager,
    `UPDATE notification_deliveries SET next_attempt_at = GREATEST(next_attempt_at, $2)
      WHERE id = $1 AND status IN ('pending', 'ambiguous')`,
    [id, until],
  );
}
