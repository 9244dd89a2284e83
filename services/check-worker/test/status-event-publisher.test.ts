import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, statusChangedJobId } from '@uptime/queues';
import { aMonitor, aUser, openTestDatabase, resetDatabase, resetRedis } from '@uptime/testing';
import { StatusEventPublisher } from '../src/status-event-publisher';

const logger = createLogger({ level: 'silent', service: 'test' });

describe('status event outbox sweep', () => {
  let ds: DataSource;
  let redis: Redis;
  let publisher: StatusEventPublisher;
  const prefix = `${process.env.QUEUE_PREFIX}:outbox-test`;

  beforeAll(async () => {
    ds = await openTestDatabase();
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis(prefix);
    publisher = new StatusEventPublisher(ds, redis, prefix, logger);
  });
  afterEach(() => publisher.close());
  afterAll(async () => {
    await redis.quit();
    await ds.destroy();
  });

  it('publishes an event left behind, marks it published in its own transaction, and leaves nothing locked', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    const [event] = await ds.query(
      `INSERT INTO status_events (monitor_id, from_status, to_status, occurred_at) VALUES ($1, 'online', 'offline', now() - interval '1 minute') RETURNING id`,
      [m.id],
    );
    // Before the fix the mark-published UPDATE ran on another pooled connection and waited
    // forever for the sweep's own row locks.
    const swept = await Promise.race([publisher.sweep(), new Promise<string>((r) => setTimeout(() => r('timed out'), 5000).unref())]);
    expect(swept).toBe(1);
    const [row] = await ds.query(`SELECT published_at FROM status_events WHERE id = $1`, [event.id]);
    expect(row.published_at).toBeInstanceOf(Date);
    const job = await publisher.queue.getJob(statusChangedJobId(String(event.id)));
    expect(job?.data).toMatchObject({ eventId: String(event.id), monitorId: m.id, from: 'online', to: 'offline' });
    const waiting = await ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    expect(waiting[0].n).toBe(0);
    expect(await publisher.sweep()).toBe(0);
  });
});
