import { displayRecipient } from '@uptime/db';
import { describeAlert, type AlertContext } from '../alert';
import { attemptDelivery, type AttemptDeps } from './attempt-delivery';
import { listOpenDeliveries } from './delivery.repository';

export interface DeliverAlertDeps extends AttemptDeps {
  /** How long to wait for deliveries another notifier is sending right now before retrying later. */
  inFlightWaitMs: number;
  pollIntervalMs: number;
}

/**
 * Sends every delivery of the alert's notifications not sent yet, whatever its kind, on every
 * channel, each at most once across processes (a lease taken by one conditional UPDATE before it
 * is sent).
 *
 * Returns only when none is left open, so a job completes only once its messages are out. Throws
 * (so the queue retries the job) when a send failed transiently, a provider asked to wait, or
 * another sender is still busy after `inFlightWaitMs`. Should the job be lost anyway, the sweeper
 * of every notifier (deliveries/delivery-sweeper.ts) still sends what is due.
 */
export async function deliverAlert(deps: DeliverAlertDeps, alert: AlertContext): Promise<void> {
  const deadline = Date.now() + deps.inFlightWaitMs;
  for (;;) {
    const open = await listOpenDeliveries(deps.dataSource, alert.ref);
    if (open.length === 0) return;

    let hasProgressed = false;
    const waiting: string[] = [];
    // One at a time, downtime before recovery, so each recipient gets them in that order.
    for (const delivery of open) {
      const outcome = await attemptDelivery(deps, delivery, alert, { onlyIfDue: false });
      if (outcome === 'busy') continue;
      hasProgressed = true;
      if (outcome === 'retry' || outcome === 'paused') waiting.push(`${delivery.channel} to ${displayRecipient(delivery.channel, delivery.recipient)}`);
    }
    if (waiting.length > 0) {
      throw new Error(`${waiting.join(', ')} failed transiently or is paused (${describeAlert(alert.ref, alert.kind)}); will retry`);
    }
    if (!hasProgressed) {
      if (Date.now() >= deadline) {
        throw new Error(`deliveries of ${describeAlert(alert.ref, alert.kind)} are still being sent by another notifier; will check again`);
      }
      await new Promise((resolve) => setTimeout(resolve, deps.pollIntervalMs));
    }
  }
}
