import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createRedisConnection } from '@uptime/queues';
import { aMonitor, aUser, openTestDatabase, resetDatabase, resetRedis } from '@uptime/testing';
import { uptimeSummaries } from '../src/monitor-stats/uptime.repository';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('uptime: a page read monitor by monitor and a whole dashboard read by bucket agree', () => {
  let ds: DataSource;
  let redis: Redis;
  const prefix = `${process.env.QUEUE_PREFIX}:uptime-read-test`;

  beforeAll(async () => {
    ds = await openTestDatabase();
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis(prefix);
  });
  afterAll(async () => {
    await redis.quit();
    await ds.destroy();
  });

  it('sums the same live rows either way', async () => {
    const user = await aUser(ds);
    const [a, b] = [await aMonitor(ds, user), await aMonitor(ds, user)];
    const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000);
    const hour = Math.floor(now.getTime() / HOUR) * HOUR;
    const rows: [number, string, number, number, number][] = [
      [a.id, 'check_rollups_5m', hour, 10, 9],
      [a.id, 'check_rollups_5m', hour + 300_000, 10, 10],
      [a.id, 'check_rollups_1h', hour, 20, 19],
      [a.id, 'check_rollups_1h', hour - HOUR, 120, 100],
      [a.id, 'check_rollups_1d', Math.floor(hour / DAY) * DAY, 300, 280],
      [b.id, 'check_rollups_5m', hour, 4, 1],
      [b.id, 'check_rollups_1h', hour, 4, 1],
      [b.id, 'check_rollups_1d', Math.floor(hour / DAY) * DAY - DAY, 50, 25],
    ];
    for (const [id, table, bucket, checks, successes] of rows) {
      await ds.query(`INSERT INTO ${table} (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_hist) VALUES ($1, $2, $3, $4, $3, $3 * 40, '{}')`, [
        id,
        new Date(bucket),
        checks,
        successes,
      ]);
    }
    const source = { ds, redis, prefix };
    const page = await uptimeSummaries(source, [a.id, b.id], now);
    // Ids without rows make the list long enough for the bulk read.
    const many = [a.id, b.id, ...Array.from({ length: 998 }, (_, i) => 1_000_000 + i)];
    const whole = await uptimeSummaries(source, many, now);
    expect(whole.get(a.id)).toEqual(page.get(a.id));
    expect(whole.get(b.id)).toEqual(page.get(b.id));
    expect(page.get(a.id)!.uptime['24h']).toBe(Math.round((119 / 140) * 10000) / 100);
    expect(page.get(b.id)!.uptime['30d']).toBe(50);
  });
});
