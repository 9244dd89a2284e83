import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { QueueName } from '@uptime/queues';
import { waitFor } from '@uptime/testing';

/** The checks queue as the check-workers read it, so that a test can wait for a check to end. */
export class CheckJobs {
  private readonly connection = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  readonly queue = new Queue(QueueName.checks, { connection: this.connection, prefix: process.env.QUEUE_PREFIX });

  /** Waits until no check of the monitor is running. */
  async waitForNoneRunning(monitorId: number, { timeoutMs = 20_000 } = {}): Promise<void> {
    await waitFor(
      async () => {
        const active = await this.queue.getJobs(['active']);
        return !active.some((job) => (job.data as { monitorId?: number }).monitorId === monitorId);
      },
      { what: `no check of monitor ${monitorId} running`, timeoutMs, intervalMs: 50 },
    );
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.connection.quit();
  }
}
