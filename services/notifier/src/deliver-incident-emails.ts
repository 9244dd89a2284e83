import type { DataSource, NotificationType } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { isPermanentSendError, type EmailChannel } from './channels/email-channel';
import type { IncidentContext } from './incident-context';
import { composeIncidentEmail } from './incident-email';
import { queryRows } from './query-rows';

/**
 * A delivery still 'sending' after this long belongs to a sender that died between claiming and
 * recording the outcome; it is claimed again. Far above any send timeout, so a live sender is
 * never overtaken (which would send twice).
 */
export const STALE_CLAIM_SECONDS = 300;

export interface DeliveryDeps {
  dataSource: DataSource;
  emailChannel: EmailChannel;
  mailFrom: string;
  logger: Logger;
  /** How long to wait for deliveries another notifier is sending right now before retrying later. */
  inFlightWaitMs: number;
  pollIntervalMs: number;
}

interface ClaimedDelivery {
  id: number;
  notification_id: number;
  recipient: string;
  type: NotificationType;
}

type Outcome = 'sent' | 'failed' | 'retry';

/**
 * Sends every email of the incident's notifications not sent yet, each at most once across
 * processes: a delivery is claimed by one conditional UPDATE before it is sent.
 *
 * Returns only when none is left pending or in flight: a job must not complete while another
 * process is still sending one of its emails, since if that process then crashed, nobody would
 * send it. Throws (so the queue retries the job) when a send failed transiently or another
 * sender is still busy after `inFlightWaitMs`.
 */
export async function deliverIncidentEmails(deps: DeliveryDeps, ctx: IncidentContext): Promise<void> {
  const deadline = Date.now() + deps.inFlightWaitMs;
  for (;;) {
    const open = await listOpenDeliveries(deps.dataSource, ctx.incidentId);
    if (open.length === 0) return;

    let hasProgressed = false;
    const retryable: string[] = [];
    // One at a time, downtime before recovery, so recipients get them in that order.
    for (const { id } of open) {
      const claimed = await claim(deps.dataSource, id);
      if (!claimed) continue; // another sender has it
      hasProgressed = true;
      if ((await sendClaimed(deps, ctx, claimed)) === 'retry') retryable.push(claimed.recipient);
    }
    if (retryable.length > 0) {
      throw new Error(`email to ${retryable.join(', ')} failed transiently (incident ${ctx.incidentId}); will retry`);
    }
    if (!hasProgressed) {
      if (Date.now() >= deadline) {
        throw new Error(`emails of incident ${ctx.incidentId} are still being sent by another notifier; will check again`);
      }
      await new Promise((resolve) => setTimeout(resolve, deps.pollIntervalMs));
    }
  }
}

function listOpenDeliveries(db: DataSource, incidentId: number): Promise<{ id: number }[]> {
  return queryRows<{ id: number }>(
    db.manager,
    `SELECT d.id
       FROM email_deliveries d
       JOIN notifications n ON n.id = d.notification_id
      WHERE n.incident_id = $1 AND d.status IN ('pending', 'sending')
      ORDER BY CASE n.type WHEN 'downtime' THEN 0 ELSE 1 END, d.id`,
    [incidentId],
  );
}

async function claim(db: DataSource, deliveryId: number): Promise<ClaimedDelivery | null> {
  const [row] = await queryRows<ClaimedDelivery>(
    db.manager,
    `UPDATE email_deliveries d
        SET status = 'sending', claimed_at = now(), attempts = d.attempts + 1
       FROM notifications n
      WHERE d.id = $1 AND n.id = d.notification_id
        AND (d.status = 'pending' OR (d.status = 'sending' AND d.claimed_at < now() - $2 * interval '1 second'))
      RETURNING d.id, d.notification_id, d.recipient, n.type`,
    [deliveryId, STALE_CLAIM_SECONDS],
  );
  return row ?? null;
}

async function sendClaimed(deps: DeliveryDeps, ctx: IncidentContext, delivery: ClaimedDelivery): Promise<Outcome> {
  const log = deps.logger.child({ deliveryId: delivery.id, notificationId: delivery.notification_id, type: delivery.type });
  try {
    await deps.emailChannel.send(composeIncidentEmail(delivery.type, ctx, deps.mailFrom, delivery.recipient));
  } catch (err) {
    const isPermanent = isPermanentSendError(err);
    const message = ((err as Error).message ?? String(err)).slice(0, 2000);
    await queryRows(deps.dataSource.manager, `UPDATE email_deliveries SET status = $2, last_error = $3 WHERE id = $1`, [
      delivery.id,
      isPermanent ? 'failed' : 'pending',
      message,
    ]);
    if (isPermanent) log.error({ err, recipient: delivery.recipient }, 'email refused permanently; not retried');
    else log.warn({ err, recipient: delivery.recipient }, 'email failed transiently; will retry');
    return isPermanent ? 'failed' : 'retry';
  }
  // The transport has the email now. Should this write fail, the delivery stays 'sending' and is
  // sent again once its claim is stale: for alerts, a rare duplicate beats a lost email.
  await deps.dataSource.transaction(async (tx) => {
    await queryRows(tx, `UPDATE email_deliveries SET status = 'sent', sent_at = now(), last_error = NULL WHERE id = $1`, [delivery.id]);
    await queryRows(tx, `UPDATE notifications SET email_sent_at = now() WHERE id = $1 AND email_sent_at IS NULL`, [
      delivery.notification_id,
    ]);
  });
  log.info({ recipient: delivery.recipient }, 'email sent');
  return 'sent';
}
