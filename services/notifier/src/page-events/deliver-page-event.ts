import type { AttemptDeps } from '../deliveries/attempt-delivery';
import { sendUnderLease } from '../deliveries/attempt-delivery';
import type { EmailChannel } from '../channels/email-channel';
import { composePageEventEmail } from './page-event-email';
import {
  cancelLeftSubscriberDelivery,
  claimPageDelivery,
  fanOutPageEvent,
  listOpenPageDeliveries,
  loadPageEvent,
  type OpenPageDelivery,
  type PageEvent,
} from './page-event.repository';

export interface PageEventDeps extends AttemptDeps {
  emailChannel: EmailChannel;
  mailFrom: string;
  /** PUBLIC_URL: the base of the page's links in the email. */
  publicUrl: string;
}

/** Subscriber emails sent at once by one job: a page's thousand subscribers are told in seconds, not minutes. */
const PARALLEL_SENDS = 16;

type Outcome = 'sent' | 'failed' | 'retry' | 'busy' | 'paused' | 'cancelled';

/**
 * One attempt at one subscriber's email: unless the transport is paused, claim it (a lease, as an
 * alert's), send it, record the outcome. One whose subscriber left is cancelled, never sent.
 */
export async function attemptPageDelivery(
  deps: PageEventDeps,
  event: PageEvent,
  open: OpenPageDelivery,
  options: { onlyIfDue: boolean },
): Promise<Outcome> {
  const provider = deps.emailChannel.provider ?? null;
  const pausedUntil = provider === null ? null : await deps.pauses.pausedUntil(provider);
  if (pausedUntil) return 'paused';
  const claimed = await claimPageDelivery(deps.dataSource, open.id, deps.leaseMs, options);
  if (!claimed) return (await cancelLeftSubscriberDelivery(deps.dataSource, open.id)) ? 'cancelled' : 'busy';
  const log = deps.logger.child({ delivery_id: claimed.id, page_event_id: event.id });
  const mail = composePageEventEmail(event, { address: claimed.recipient, unsubscribeToken: claimed.unsubscribeToken }, deps);
  // An email with no mail transport is only logged, and recorded so (docs/notifications.md).
  return sendUnderLease(deps, claimed, provider, log, async () => {
    await deps.emailChannel.send(mail);
    return deps.emailChannel.logsOnly ? 'logged' : undefined;
  });
}

/**
 * Tells the page's subscribers about one event: records one email per confirmed subscriber (once,
 * however often the job runs), then sends those not sent yet, several at a time, each at most
 * once across notifiers. Throws (so the queue retries) while some failed transiently or wait for
 * their provider; the sweep (page-event-sweeper.ts) sends what a lost job left.
 */
export async function deliverPageEvent(deps: PageEventDeps, eventId: number): Promise<void> {
  const event = await loadPageEvent(deps.dataSource, eventId);
  if (!event) return; // its incident or page was deleted meanwhile: nothing to tell
  await fanOutPageEvent(deps.dataSource, event);
  const open = await listOpenPageDeliveries(deps.dataSource, eventId);
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < open.length) {
      const delivery = open[next++]!;
      outcomes.push(await attemptPageDelivery(deps, event, delivery, { onlyIfDue: false }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, open.length) }, lane));
  const waiting = outcomes.filter((o) => o === 'retry' || o === 'paused').length;
  if (waiting > 0)
    throw new Error(
      `${waiting} subscriber email(s) of status page event ${eventId} failed transiently or wait for the provider; will retry`,
    );
}
