import IORedis from 'ioredis';
import type { DataSource } from '@uptime/db';
import { namesAlert, openQueue, QueueName, statusChangedJobId } from '@uptime/queues';
import { waitFor } from '@uptime/testing';

/**
 * The status-changes queue as the notifier reads it, so that a test can wait for the jobs that
 * could send an email to finish, then assert that nothing (more) was sent.
 */
export class StatusChangeJobs {
  private readonly connection = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  readonly queue = openQueue(QueueName.statusChanges, { connection: this.connection, prefix: process.env.QUEUE_PREFIX });

  constructor(private readonly ds: DataSource) {}

  /**
   * Waits until every status event of the monitor is published from the outbox and the
   * `status-changed` job of each that names an alert has completed: every email those events
   * cause has been sent by then. The others have no job (namesAlert(), insertEvents()).
   */
  async waitForMonitorEventsHandled(monitorId: number, { timeoutMs = 20_000 } = {}): Promise<void> {
    await waitFor(
      async () => {
        const events: { id: string; published_at: Date | null; incident_id: number | null; episode_ids: number[] }[] = await this.ds.query(
          'SELECT id, published_at, incident_id, episode_ids FROM status_events WHERE monitor_id = $1',
          [monitorId],
        );
        if (events.length === 0 || events.some((e) => e.published_at === null)) return false;
        const queued = events.filter((e) => namesAlert({ incidentId: e.incident_id, episodeIds: e.episode_ids }));
        return this.allCompleted(queued.map((e) => statusChangedJobId(String(e.id))));
      },
      { what: `status events of monitor ${monitorId} handled by the notifier`, timeoutMs },
    );
  }

  /** Waits until each of the jobs has completed; a job that failed for good fails the wait at once. */
  async waitForJobsCompleted(jobIds: readonly string[], { timeoutMs = 20_000 } = {}): Promise<void> {
    await waitFor(() => this.allCompleted(jobIds), { what: `jobs ${jobIds.join(', ')} completed`, timeoutMs });
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.connection.quit();
  }

  private async allCompleted(jobIds: readonly string[]): Promise<boolean> {
    const states = await Promise.all(jobIds.map((id) => this.queue.getJobState(id)));
    const failed = jobIds.filter((_, i) => states[i] === 'failed');
    if (failed.length > 0) throw new Error(`status-changed jobs failed: ${failed.join(', ')}`);
    return states.every((s) => s === 'completed');
  }
}
