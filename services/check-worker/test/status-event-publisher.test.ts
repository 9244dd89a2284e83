import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, HeartbeatDeadlines, statusChangedJobId } from '@uptime/queues';
import { aMonitor, aUser, openTestDatabase, resetDatabase, resetRedis } from '@uptime/testing';
import { HeartbeatEngine } from '../src/heartbeat/heartbeat-engine';
import { StatusEventPublisher } from '../src/status-event-publisher';
import type { StatusEvent } from '../src/status-event';
import { aHeartbeat } from './support/heartbeat-fixtures';

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

  it("queues no job for a heartbeat's first ping, which notifies nobody, and still one for its downtime and its recovery", async () => {
    const T0 = Date.parse('2026-11-22T10:00:00.000Z');
    let clock = T0;
    const seen: StatusEvent[] = [];
    const deadlines = new HeartbeatDeadlines(redis, prefix);
    const engine = new HeartbeatEngine({
      ds,
      deadlines,
      now: () => clock,
      // As the check-worker wires it (check-worker.ts): every event to live updates, publish() to the queue.
      published: async (events) => {
        seen.push(...events);
        await publisher.publish(events);
      },
    });
    const m = await aHeartbeat(ds, deadlines, T0);
    const ping = (second: number) => ds.query(`INSERT INTO heartbeat_pings (monitor_id, kind, received_at) VALUES ($1, 'success', $2)`, [m.id, new Date(T0 + second * 1000)]);
    const rows = () =>
      ds.query(`SELECT id, from_status, to_status, incident_id, published_at FROM status_events WHERE monitor_id = $1 ORDER BY id`, [m.id]) as Promise<
        { id: string; from_status: string; to_status: string; incident_id: number | null; published_at: Date | null }[]
      >;

    await ping(10);
    await engine.advance(m.id);
    const [first] = await rows();
    // The event is written (the monitor's history) and handed to live updates, already published, with no job.
    expect(first).toMatchObject({ from_status: 'pending', to_status: 'online', incident_id: null, published_at: expect.any(Date) });
    expect(seen.map((e) => `${e.from}>${e.to}`)).toEqual(['pending>online']);
    expect(await publisher.queue.getJob(statusChangedJobId(String(first!.id)))).toBeUndefined();
    expect(await publisher.queue.getJobCounts('waiting', 'delayed', 'prioritized', 'completed')).toEqual({ waiting: 0, delayed: 0, prioritized: 0, completed: 0 });

    clock = T0 + 100_000;
    await engine.tick();
    await ping(200);
    await engine.advance(m.id);
    const [, down, up] = await rows();
    expect(down).toMatchObject({ from_status: 'online', to_status: 'offline', incident_id: expect.any(Number), published_at: expect.any(Date) });
    expect(up).toMatchObject({ from_status: 'offline', to_status: 'online', incident_id: down!.incident_id, published_at: expect.any(Date) });
    for (const e of [down!, up!]) {
      expect((await publisher.queue.getJob(statusChangedJobId(String(e.id))))?.data).toMatchObject({ eventId: String(e.id), incidentId: e.incident_id });
    }
    // Nothing is left for the sweep.
    expect(await publisher.sweep(0)).toBe(0);
  });
});
