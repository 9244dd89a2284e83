import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { openTestDatabase, resetDatabase, resetRedis, startFakeHttpServer, testConfig, type FakeHandler, type FakeHttpServer } from '@uptime/testing';

/** What the check-worker's flow tests schedule checks with: the test database, Redis, a scheduler and a target. */
export interface SchedulerBed {
  ds: DataSource;
  redis: Redis;
  /** On the test queue prefix, through `redis`. */
  scheduler: MonitorScheduler;
  target: FakeHttpServer;
  /** The scheduler, Redis, the target, then the database connection. */
  close(): Promise<void>;
}

/**
 * Opens the bed; `name` names the Redis connection. The database and Redis are reset first
 * unless `reset` is false (a file that resets before each test).
 */
export async function startSchedulerBed(name: string, handler?: FakeHandler, { reset = true }: { reset?: boolean } = {}): Promise<SchedulerBed> {
  const config = testConfig();
  const ds = await openTestDatabase();
  if (reset) {
    await resetDatabase(ds);
    await resetRedis();
  }
  const redis = createRedisConnection(config.redis.url, name);
  const scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
  const target = await startFakeHttpServer(handler);
  return {
    ds,
    redis,
    scheduler,
    target,
    async close() {
      await scheduler.close();
      await redis.quit();
      await target.close();
      await ds.destroy();
    },
  };
}
