import { activeOccurrence } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { startPeriodicPass } from '@uptime/observability';
import { DEFAULT_SWEEP_INTERVAL_MS } from '../deliveries/delivery-sweeper';
import { attemptPageDelivery, deliverPageEvent, type PageEventDeps } from './deliver-page-event';
import {
  listDuePageDeliveries,
  listUnannouncedPageEvents,
  listWatchedWindows,
  loadPageEvent,
  recordMaintenanceStart,
  type PageEvent,
} from './page-event.repository';

const BATCH = 200;
/** An event's job is queued right after its write commits; one still without deliveries after this was lost. */
const ANNOUNCE_GRACE_MS = 30_000;
/**
 * A maintenance occurrence is announced when a sweep finds it begun at most this long ago: after
 * an outage of every notifier, or for a window set up after its start, subscribers are not told
 * of work long under way.
 */
const MAINTENANCE_START_LOOKBACK_MS = 15 * 60_000;

/** Records the maintenance occurrences that began since the last sweep; returns the new events. */
async function recordMaintenanceStarts(deps: PageEventDeps, now: Date): Promise<number[]> {
  const events: number[] = [];
  for (const window of await listWatchedWindows(deps.dataSource)) {
    const occurrence = activeOccurrence(window, now);
    if (!occurrence || now.getTime() - occurrence.startsAt.getTime() > MAINTENANCE_START_LOOKBACK_MS) continue;
    const id = await recordMaintenanceStart(deps.dataSource, window, occurrence);
    if (id !== null) events.push(id);
  }
  return events;
}

/**
 * Runs in every notifier: tells subscribers that maintenance over their page's monitors started
 * (once per page and occurrence, whichever notifier sees it first), and of the events whose job
 * was lost, and sends their emails that are due again (a retry whose time came) or whose sender
 * died (expired lease).
 */
export function startPageEventSweeper(
  deps: PageEventDeps,
  options: { intervalMs?: number; clock?: () => Date } = {},
): { sweep(): Promise<number>; stop(): Promise<void> } {
  const log: Logger = deps.logger.child({ component: 'page-event-sweeper' });
  const clock = options.clock ?? (() => new Date());
  const pass = async (): Promise<number> => {
    let attempted = 0;
    const started = await recordMaintenanceStarts(deps, clock());
    const lost = await listUnannouncedPageEvents(deps.dataSource, ANNOUNCE_GRACE_MS, BATCH);
    for (const eventId of [...started, ...lost]) {
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
