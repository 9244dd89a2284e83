import type { Logger } from '@uptime/logger';
import { startPeriodicPass } from '@uptime/observability';
import { DEFAULT_SWEEP_INTERVAL_MS } from '../deliveries/delivery-sweeper';
import { attemptPageDelivery, deliverPageEvent, type PageEventDeps } from './deliver-page-event';
import { listDuePageDeliveries, listUnannouncedPageEvents, loadPageEvent, type PageEvent } from './page-event.repository';

const BATCH = 200;
/** An event's job is queued right after its write commits; one still without deliveries after this was lost. */
const ANNOUNCE_GRACE_MS = 30_000;

/**
 * Runs in every notifier: tells subscribers of the events whose job was lost, and sends their
 * emails that are due again (a retry whose time came) or whose sender died (expired lease).
 */
export function startPageEventSweeper(
  deps: PageEventDeps,
  options: { intervalMs?: number } = {},
): { sweep(): Promise<number>; stop(): Promise<void> } {
  const log: Logger = deps.logger.child({ component: 'page-event-sweeper' });
  const pass = async (): Promise<number> => {
    let attempted = 0;
    for (const eventId of await listUnannouncedPageEvents(deps.dataSource, ANNOUNCE_GRACE_MS, BATCH)) {
      await deliverPageEvent(deps, eventId).catch((err: unknown) =>
        log.warn({ err, page_event_id: eventId }, 'status page event not fully sent; will retry'),
      );
      attempted += 1;
    }
    const events = new Map<number, PageEvent | null>();
    for (const row of await listDuePageDeliveries(deps.dataSource, BATCH)) {
      if (!events.has(row.eventId)) events.set(row.eventId, await loadPageEvent(deps.dataSource, row.eventId));
      const event = events.get(row.eventId);
      if (!event) continue; // deleted a moment ago: the cascade removes the delivery
      if ((await attemptPageDelivery(deps, event, row, { onlyIfDue: true })) !== 'busy') attempted += 1;
    }
    if (attempted > 0) log.info({ attempted }, 'swept status page subscriber emails');
    return attempted;
  };
  const periodic = startPeriodicPass(pass, options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, log, 'status page event sweep');
  return { sweep: () => periodic.run(), stop: () => periodic.stop() };
}
