import type { DataSource } from '@uptime/db';
import type { Config } from '@uptime/config';
import { checkShardOf, createRedisConnection, openMonitorScheduler, type MonitorScheduler } from '@uptime/queues';
import {
  aMonitor,
  aUser,
  openTestDatabase,
  resetDatabase,
  resetRedis,
  startFakeHttpServer,
  startRedisServer,
  startServiceProcess,
  testConfig,
  waitFor,
  type FakeHttpServer,
  type RedisServer,
  type ServiceProcess,
} from '@uptime/testing';
import type { Redis } from 'ioredis';
import { plannedTimeOf } from '../src/run-check.processor';

jest.setTimeout(300_000);

/**
 * Long enough that a slot whose check was running when its worker was killed is re-run before
 * the next one: the take-over (a liveness TTL, 3 s, plus half a second of watching) and the
 * take-back of the dead process's job (a TTL more) come ~7 s after the kill.
 */
const INTERVAL_S = 20;
/** A check of the slow monitor holds the target this long: its job is active when the owner dies. */
const SLOW_MS = 2_000;

/**
 * Two shards of the checks queue (docs/scaling.md): shard 0 on the run's Redis, shard 1 on a
 * redis-server of its own; worker A owns shard 0, worker B shard 1. B is killed with SIGKILL in
 * the middle of a check: A takes shard 1 over, re-runs the killed check and keeps every slot of
 * shard 1's monitors, then hands the shard back when B is started again.
 */
describe('a shard whose only owner dies', () => {
  let server: RedisServer;
  let config: Config;
  let ds: DataSource;
  let redis: Redis;
  let scheduler: MonitorScheduler;
  let target: FakeHttpServer;
  const workers: ServiceProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    server = await startRedisServer();
    const main = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    env = { CHECK_SHARDS: `${main},${server.url}`, LOG_LEVEL: 'debug', ALLOW_PRIVATE_TARGETS: 'true' };
    config = testConfig({ CHECK_SHARDS: env.CHECK_SHARDS });
    ds = await openTestDatabase();
    await resetDatabase(ds);
    await resetRedis();
    redis = createRedisConnection(config.redis.url, 'fault-shard-takeover-test');
    scheduler = openMonitorScheduler({ connection: redis, url: config.redis.url, prefix: config.redis.queuePrefix }, config.checkShards.shards, (url) =>
      createRedisConnection(url, 'fault-shard-takeover-test'),
    );
    target = await startFakeHttpServer((req, res) => {
      const answer = () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      };
      if (req.url.startsWith('/slow')) setTimeout(answer, SLOW_MS);
      else answer();
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await scheduler?.close();
    await redis?.quit();
    await target?.close();
    await ds?.destroy();
    await server?.stop();
  });

  const startWorker = async (shards: string): Promise<ServiceProcess> => {
    const worker = startServiceProcess('check-worker', { ...env, CHECK_WORKER_SHARDS: shards });
    workers.push(worker);
    await waitFor(() => worker.logs.some((l) => l.msg === 'check-worker started'), { timeoutMs: 60_000, what: 'the worker to start' });
    return worker;
  };

  const slotsOf = async (monitorId: number): Promise<number[]> =>
    ((await ds.query('SELECT scheduled_at FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [monitorId])) as { scheduled_at: Date }[]).map((r) =>
      r.scheduled_at.getTime(),
    );
  const notChecked = async (): Promise<number> => Number(((await ds.query('SELECT count(*) AS n FROM no_data_spans')) as { n: string }[])[0]!.n);

  it('is taken over by the other shard\'s worker with every slot checked, and handed back when its owner returns', async () => {
    const a = await startWorker('0');
    let b = await startWorker('1');
    const user = await aUser(ds);
    // Monitors until each shard has three, the first of shard 1 on the slow path.
    const onShard: number[][] = [[], []];
    let slow: number | undefined;
    while (onShard[0]!.length < 3 || onShard[1]!.length < 3) {
      const n = onShard[0]!.length + onShard[1]!.length;
      const monitor = await aMonitor(ds, user, { url: `${target.url}/m${n}`, checkInterval: INTERVAL_S, timeout: 5 });
      const shard = checkShardOf(monitor.id, 2);
      if (onShard[shard]!.length >= 3) continue;
      if (shard === 1 && slow === undefined) {
        await ds.query('UPDATE monitors SET url = $2 WHERE id = $1', [monitor.id, `${target.url}/slow`]);
        monitor.url = `${target.url}/slow`;
        slow = monitor.id;
      }
      onShard[shard]!.push(monitor.id);
      await scheduler.schedule(monitor);
    }
    const shard1 = scheduler.shards[1]!;

    // B runs the slow monitor's check; it is killed in the middle of it.
    const killedJob = await waitFor(async () => (await shard1.queue.getJobs(['active'])).find((j) => j.data.monitorId === slow), {
      timeoutMs: (INTERVAL_S + 30) * 1000,
      what: "the slow monitor's check to run on shard 1",
    });
    const killedSlot = plannedTimeOf(killedJob).getTime();
    b.child.kill('SIGKILL');
    expect(await b.exited).toBeNull();

    await waitFor(() => a.logs.some((l) => l.shard === 1 && String(l.msg).startsWith('no owner of this shard')), {
      timeoutMs: 20_000,
      what: 'worker A to take shard 1 over',
    });
    // The killed check is re-run for its slot, and the next slot of every monitor of shard 1 is
    // checked: by A, the only worker running until B starts again below.
    await waitFor(async () => (await slotsOf(slow!)).includes(killedSlot), { timeoutMs: INTERVAL_S * 1000, what: 'the killed check to be re-run' });
    const killedSlotEnd = killedSlot + INTERVAL_S * 1000;
    for (const id of onShard[1]!)
      await waitFor(async () => (await slotsOf(id)).some((t) => t > killedSlotEnd), { timeoutMs: 2 * INTERVAL_S * 1000, what: `monitor ${id}'s next slot` });

    b = await startWorker('1');
    await waitFor(() => a.logs.some((l) => l.shard === 1 && String(l.msg).startsWith('an owner of this shard is back')), {
      timeoutMs: 20_000,
      what: 'worker A to hand shard 1 back',
    });
    const handedBackAt = Date.now();
    for (const id of onShard[1]!)
      await waitFor(async () => (await slotsOf(id)).some((t) => t > handedBackAt), { timeoutMs: 2 * INTERVAL_S * 1000, what: `monitor ${id}'s slot after the hand-back` });

    // Nothing lost: every monitor's slots, from its first to its last, one interval apart, none skipped or not checked.
    for (const id of [...onShard[0]!, ...onShard[1]!]) {
      const slots = await slotsOf(id);
      expect(slots.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < slots.length; i += 1) expect(slots[i]! - slots[i - 1]!).toBe(INTERVAL_S * 1000);
    }
    expect(await notChecked()).toBe(0);
  });
});
