import IORedis, { type Redis } from 'ioredis';
import request from 'supertest';
import { checkShardOf, createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { aCaller, startRedisServer, type RedisServer } from '@uptime/testing';
import { reconcileSchedules } from '../src/schedule-reconciler';
import { startApiHarness, type ApiHarness } from './support/api-harness';

// Three shards of the checks queue (docs/scaling.md): shard 0 on the run's Redis under the run's
// prefix, shards 1 and 2 on redis-servers of their own, started here.
let servers: RedisServer[];
let h: ApiHarness;
let direct: Redis[];
let auth: string;

beforeAll(async () => {
  servers = [await startRedisServer(), await startRedisServer()];
  const main = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  h = await startApiHarness({ CHECK_SHARDS: [main, ...servers.map((s) => s.url)].join(',') });
  direct = [h.redis, ...servers.map((s) => new IORedis(s.url))];
});

afterAll(async () => {
  await h.close();
  for (const connection of direct.slice(1)) await connection.quit();
  for (const server of servers) await server.stop();
});

beforeEach(async () => {
  await h.reset();
  for (const connection of direct.slice(1)) await connection.flushall();
  ({ auth } = await aCaller(h.ds));
});

async function createMonitors(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await request(h.app).post('/api/v1/monitors').set('Authorization', auth).send({ name: `m${i}`, url: `https://m${i}.example/`, type: 'http' });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id as number);
  }
  return ids;
}

/** The monitor ids in shard `index`'s schedule hash, read from that shard's own server. */
async function entriesOn(index: number): Promise<number[]> {
  const key = `${h.scheduler.shards[index]!.prefix}:scheduler:versions`;
  return (await direct[index]!.hkeys(key)).map(Number).sort((a, b) => a - b);
}

const onShard = (ids: number[], index: number, count = 3): number[] => ids.filter((id) => checkShardOf(id, count) === index).sort((a, b) => a - b);

describe('the checks queue spread over shards', () => {
  it('names each shard by its own prefix: QUEUE_PREFIX for shard 0, a suffix for the others', () => {
    const prefix = h.config.redis.queuePrefix;
    expect(h.scheduler.shards.map((s) => s.prefix)).toEqual([prefix, `${prefix}-shard-1`, `${prefix}-shard-2`]);
  });

  it("puts a new monitor's schedule entry, its job and its first check on its shard's Redis, and on no other", async () => {
    const ids = await createMonitors(12);
    for (const index of [0, 1, 2]) {
      expect(onShard(ids, index).length).toBeGreaterThan(0);
      expect(await entriesOn(index)).toEqual(onShard(ids, index));
      const shard = h.scheduler.shards[index]!;
      for (const id of ids) expect((await shard.scheduleOf(id)) !== undefined).toBe(checkShardOf(id, 3) === index);
      // The first check, queued at once (checkNow), waits on the same shard.
      const waiting = await shard.queue.getWaiting();
      expect(waiting.map((j) => (j.data as { monitorId: number }).monitorId).sort((a, b) => a - b)).toEqual(onShard(ids, index));
    }
  });

  it("removes a deleted monitor's schedule from its shard", async () => {
    const ids = await createMonitors(6);
    const gone = ids.find((id) => checkShardOf(id, 3) !== 0)!;
    expect((await request(h.app).delete(`/api/v1/monitors/${gone}`).set('Authorization', auth)).status).toBe(200);
    expect(await entriesOn(checkShardOf(gone, 3))).toEqual(onShard(ids, checkShardOf(gone, 3)).filter((id) => id !== gone));
    expect(await h.scheduler.scheduleOf(gone)).toBeUndefined();
  });

  it("repairs a shard whose Redis came back empty, and leaves the other shards' schedules alone", async () => {
    const ids = await createMonitors(12);
    const before = await h.scheduler.shards[2]!.scheduledVersions();
    await direct[1]!.flushall();
    const lost = onShard(ids, 1);
    expect(await entriesOn(1)).toEqual([]);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: lost.length, updated: 0, removed: 0, moved: 0 });
    expect(await entriesOn(1)).toEqual(lost);
    for (const id of lost) expect((await h.scheduler.scheduleOf(id))?.every).toBe(300_000);
    expect(await h.scheduler.shards[2]!.scheduledVersions()).toEqual(before);
  });

  it('moves the monitors whose shard changed with the number of shards, removing their job from the shard they left', async () => {
    const ids = await createMonitors(12);
    // The same installation with two shards (the third server not listed yet): its schedules.
    for (const index of [0, 1, 2]) await h.scheduler.shards[index]!.queue.obliterate({ force: true });
    for (const connection of direct) await connection.del(`${h.scheduler.shards[direct.indexOf(connection)]!.prefix}:scheduler:versions`);
    const shard1 = createRedisConnection(servers[0]!.url, 'uptime-api-test');
    const twoShards = new MonitorScheduler(h.redis, h.config.redis.queuePrefix, [
      { connection: h.redis, prefix: h.scheduler.shards[0]!.prefix },
      { connection: shard1, prefix: h.scheduler.shards[1]!.prefix },
    ]);
    const rows = await h.ds.query<{ id: number }[]>('SELECT id FROM monitors ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(await reconcileSchedules(h.ds, twoShards)).toMatchObject({ created: ids.length });
    await twoShards.close();
    await shard1.quit();

    // Now three: a monitor moves when its shard of three differs from its shard of two.
    const moving = ids.filter((id) => checkShardOf(id, 2) !== checkShardOf(id, 3));
    expect(moving.length).toBeGreaterThan(0);
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: moving.length, updated: 0, removed: 0, moved: moving.length });
    for (const index of [0, 1, 2]) {
      expect(await entriesOn(index)).toEqual(onShard(ids, index));
      // Only the job of the schedule is left on each shard: the moved monitors' old jobs are gone.
      const jobs = [...(await h.scheduler.shards[index]!.queue.getDelayed()), ...(await h.scheduler.shards[index]!.queue.getWaiting())];
      expect([...new Set(jobs.map((j) => (j.data as { monitorId: number }).monitorId))].sort((a, b) => a - b)).toEqual(onShard(ids, index));
    }
    expect(await reconcileSchedules(h.ds, h.scheduler)).toEqual({ created: 0, updated: 0, removed: 0, moved: 0 });
  });
});
