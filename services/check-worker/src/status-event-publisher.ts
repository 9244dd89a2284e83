import type { Redis } from 'ioredis';
import type { DataSource, EntityManager } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { startPeriodicPass, type PeriodicPass } from '@uptime/observability';
import { enqueueBulk, JOBS, namesAlert, openQueue, QueueName, type CatalogQueue, type StatusChangedJob } from '@uptime/queues';
import { lockUnpublishedEvents, markEventsPublished } from './status-event.repository';
import type { StatusEvent } from './status-event';

/** The `status-changed` job of an outbox event: ids and small facts only. */
export const toStatusChangedJob = (e: StatusEvent): StatusChangedJob => ({
  eventId: e.id,
  monitorId: e.monitorId,
  from: e.from,
  to: e.to,
  incidentId: e.incidentId,
  checkResultId: e.checkResultId,
  episodeIds: e.episodeIds,
});

/**
 * Moves status events from the Postgres outbox to the status-changes queue. Events are published
 * right after their transaction commits; a sweep republishes any left behind by a crash.
 */
export class StatusEventPublisher {
  readonly queue: CatalogQueue<typeof QueueName.statusChanges>;
  private sweeping?: PeriodicPass<number>;

  constructor(
    private readonly ds: DataSource,
    connection: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.queue = openQueue(QueueName.statusChanges, { connection, prefix });
  }

  /**
   * Queues a batch's new events that name an alert, then marks them published. The others were
   * written published (insertEvents()): nobody consumes their job, which was most of the
   * notifier's and Redis's work at 100,000 heartbeats' first pings (docs/capacity.md,
   * "Status events that notify nobody").
   */
  async publish(events: readonly StatusEvent[]): Promise<void> {
    await this.enqueue(events.filter(namesAlert), this.ds);
  }

  /**
   * Queues the events, then marks them published through `db`: the sweep passes its own
   * transaction, which holds the rows' locks (another connection would wait for them forever).
   */
  private async enqueue(events: readonly StatusEvent[], db: Pick<EntityManager, 'query'>): Promise<void> {
    if (events.length === 0) return;
    // The job id comes from the event id: a re-publish of the same event is ignored (job-catalog.ts).
    await enqueueBulk(
      this.queue,
      JOBS.statusChanged,
      events.map(toStatusChangedJob),
    );
    await markEventsPublished(db, events.map((e) => e.id));
  }

  /**
   * Publishes events older than `olderThanMs` that were never marked published: each is queued,
   * whatever it names, as rows written before insertEvents() marked the others were.
   */
  async sweep(olderThanMs = 5000): Promise<number> {
    return this.ds.transaction(async (em) => {
      const events = await lockUnpublishedEvents(em, olderThanMs);
      if (events.length === 0) return 0;
      await this.enqueue(events, em);
      return events.length;
    });
  }

  /** Sweeps every `intervalMs`, one sweep at a time; close() waits for the running one. */
  startSweeping(intervalMs = 5000): void {
    this.sweeping = startPeriodicPass(() => this.sweep(), intervalMs, this.logger, 'status event sweep');
  }

  async close(): Promise<void> {
    await this.sweeping?.stop();
    await this.queue.close();
  }
}
