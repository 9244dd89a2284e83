import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource, EntityManager } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { JobName, QueueName, statusChangedJobId, type StatusChangedJob } from '@uptime/queues';
import type { StatusEvent } from './record-check-batch';

const JOB_OPTIONS = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1000 },
  // Kept a day so that a re-publish of the same event is recognised by its job id and ignored.
  removeOnComplete: { age: 86_400 },
  removeOnFail: { age: 7 * 86_400 },
} as const;

/**
 * Moves status events from the Postgres outbox to the status-changes queue. Events are published
 * right after their transaction commits; a sweep republishes any left behind by a crash.
 */
export class StatusEventPublisher {
  readonly queue: Queue;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    private readonly ds: DataSource,
    connection: Redis,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue(QueueName.statusChanges, { connection, prefix });
  }

  /**
   * Queues the events, then marks them published through `db`: the sweep passes its own
   * transaction, which holds the rows' locks (another connection would wait for them forever).
   */
  async publish(events: readonly StatusEvent[], db: Pick<EntityManager, 'query'> = this.ds): Promise<void> {
    if (events.length === 0) return;
    await this.queue.addBulk(
      events.map((e) => {
        const data: StatusChangedJob = {
          eventId: e.id,
          monitorId: e.monitorId,
          from: e.from,
          to: e.to,
          incidentId: e.incidentId,
          checkResultId: e.checkResultId,
          episodeIds: e.episodeIds,
        };
        return { name: JobName.statusChanged, data, opts: { ...JOB_OPTIONS, jobId: statusChangedJobId(e.id) } };
      }),
    );
    await db.query('UPDATE status_events SET published_at = now() WHERE id = ANY($1::bigint[]) AND published_at IS NULL', [events.map((e) => e.id)]);
  }

  /** Publishes events older than `olderThanMs` that were never marked published. */
  async sweep(olderThanMs = 5000): Promise<number> {
    return this.ds.transaction(async (em) => {
      const rows: {
        id: string;
        monitor_id: number;
        from_status: StatusEvent['from'];
        to_status: StatusEvent['to'];
        incident_id: number | null;
        check_result_id: string | null;
        episode_ids: number[];
      }[] =
        await em.query(
          `SELECT id, monitor_id, from_status, to_status, incident_id, check_result_id, episode_ids FROM status_events
            WHERE published_at IS NULL AND occurred_at < now() - make_interval(secs => $1::float / 1000)
            ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED`,
          [olderThanMs],
        );
      if (rows.length === 0) return 0;
      await this.publish(
        rows.map((r) => ({
          id: String(r.id),
          monitorId: r.monitor_id,
          from: r.from_status,
          to: r.to_status,
          incidentId: r.incident_id,
          checkResultId: r.check_result_id ? String(r.check_result_id) : null,
          episodeIds: r.episode_ids,
        })),
        em,
      );
      return rows.length;
    });
  }

  startSweeping(intervalMs = 5000): void {
    this.sweepTimer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.logger.warn({ err }, 'status event sweep failed'));
    }, intervalMs);
    this.sweepTimer.unref();
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.queue.close();
  }
}
