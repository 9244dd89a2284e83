import type { Redis } from 'ioredis';
import { Monitor, type DataSource } from '@uptime/db';
import { createRedisConnection, HeartbeatDeadlines } from '@uptime/queues';
import { openTestDatabase, resetDatabase, resetRedis } from '@uptime/testing';
import { HeartbeatEngine } from '../src/heartbeat/heartbeat-engine';
import { aHeartbeat } from './support/heartbeat-fixtures';
import type { StatusEvent } from '../src/status-event';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const at = (second: number): Date => new Date(T0 + second * 1000);

describe('heartbeat engine: pings, deadlines and the state they step, on the product clock', () => {
  let ds: DataSource;
  let redis: Redis;
  let deadlines: HeartbeatDeadlines;
  let clock: number;
  let events: Omit<StatusEvent, 'id'>[];
  let engine: HeartbeatEngine;
  const prefix = `${process.env.QUEUE_PREFIX}:heartbeat-engine`;

  beforeAll(async () => {
    ds = await openTestDatabase();
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'heartbeat-engine-test');
    deadlines = new HeartbeatDeadlines(redis, prefix);
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis(prefix);
    events = [];
    clock = T0;
    engine = new HeartbeatEngine({
      ds,
      deadlines,
      published: async (published) => {
        events.push(...published);
      },
      now: () => clock,
    });
  });
  afterAll(async () => {
    await redis.quit();
    await ds.destroy();
  });

  /** A heartbeat every 60 s with a 30 s grace, created at T0 as the API creates one: due at T0+60. */
  const heartbeat = (overrides: Partial<Monitor> = {}): Promise<Monitor> => aHeartbeat(ds, deadlines, T0, overrides);
  const ping = async (m: Monitor, second: number, kind: 'success' | 'start' | 'fail' | 'exit' = 'success', exitStatus: number | null = null) =>
    ds.query(`INSERT INTO heartbeat_pings (monitor_id, kind, exit_status, received_at) VALUES ($1, $2, $3, $4)`, [m.id, kind, exitStatus, at(second)]);
  const reload = (id: number) => ds.getRepository(Monitor).findOneByOrFail({ id });
  const incidents = (id: number) => ds.query('SELECT started_at, resolved_at, error FROM incidents WHERE monitor_id = $1 ORDER BY id', [id]);
  const moveTo = async (second: number) => {
    clock = T0 + second * 1000;
    await engine.tick();
  };

  it('is pending until the first ping, online after it, and offline at due + grace (not 0.5 s before), then back with its recovery', async () => {
    const m = await heartbeat();
    await ping(m, 10);
    await engine.advance(m.id);
    expect(await reload(m.id)).toMatchObject({ status: 'online', heartbeatDueAt: at(70) });
    expect(await deadlines.of(m.id)).toEqual(at(100));
    expect(events).toEqual([expect.objectContaining({ from: 'pending', to: 'online' })]);

    await moveTo(99.5);
    expect((await reload(m.id)).status).toBe('online');
    await moveTo(100);
    expect(await reload(m.id)).toMatchObject({ status: 'offline', heartbeatDueAt: null });
    expect(events.at(-1)).toEqual(expect.objectContaining({ from: 'online', to: 'offline', incidentId: expect.any(Number) }));
    expect(await incidents(m.id)).toEqual([{ started_at: at(100), resolved_at: null, error: 'no ping within 30 s of its due time' }]);
    expect(await deadlines.of(m.id)).toBeUndefined();
    // Nothing more is due while offline: a later round changes nothing.
    await moveTo(500);
    expect(events).toHaveLength(2);

    await ping(m, 600);
    await engine.advance(m.id);
    expect(events.at(-1)).toEqual(expect.objectContaining({ from: 'offline', to: 'online', incidentId: expect.any(Number) }));
    expect(await incidents(m.id)).toEqual([{ started_at: at(100), resolved_at: at(600), error: 'no ping within 30 s of its due time' }]);
    expect(await deadlines.of(m.id)).toEqual(at(690));
  });

  it('goes offline if no ping comes within the first period + grace after creation', async () => {
    const m = await heartbeat();
    await moveTo(89);
    expect((await reload(m.id)).status).toBe('pending');
    await moveTo(90);
    expect((await reload(m.id)).status).toBe('offline');
    expect((await incidents(m.id))[0].error).toBe('no ping within 30 s of the first expected time');
  });

  it('a start without a success within the grace: offline, "started, did not finish in 30 s"; a finish records its duration', async () => {
    const m = await heartbeat();
    await ping(m, 5);
    await ping(m, 10, 'start');
    await ping(m, 25, 'exit', 0);
    await engine.advance(m.id);
    const [finished] = await ds.query(`SELECT duration_ms FROM heartbeat_pings WHERE monitor_id = $1 AND kind = 'exit'`, [m.id]);
    expect(finished.duration_ms).toBe(15_000);
    await ping(m, 40, 'start');
    await engine.advance(m.id);
    // Due at 85 + 30 = 115 otherwise; the start must finish by 70.
    expect(await deadlines.of(m.id)).toEqual(at(70));
    await moveTo(70);
    expect((await reload(m.id)).status).toBe('offline');
    expect((await incidents(m.id))[0].error).toBe('started, did not finish in 30 s');
  });

  it('a fail or a non-zero exit status is offline at once; the next success brings it back', async () => {
    const m = await heartbeat();
    await ping(m, 5);
    await ping(m, 10, 'exit', 3);
    await engine.advance(m.id);
    expect((await reload(m.id)).status).toBe('offline');
    expect((await incidents(m.id))[0].error).toBe('the job exited with status 3');
    await ping(m, 20);
    await ping(m, 30, 'fail');
    await engine.advance(m.id);
    expect(events.map((e) => e.to)).toEqual(['online', 'offline', 'online', 'offline']);
    expect((await incidents(m.id))[1].error).toBe('the job reported a failure');
  });

  it('makes each ping its own result, two in the same millisecond included, in one step or in two', async () => {
    const m = await heartbeat();
    const results = async () => (await ds.query(`SELECT ok FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at`, [m.id])).map((r: { ok: boolean }) => r.ok);
    await ping(m, 10);
    await ping(m, 10, 'fail');
    await engine.advance(m.id);
    expect(await results()).toEqual([true, false]);
    expect((await reload(m.id)).status).toBe('offline');
    await ping(m, 20);
    await engine.advance(m.id);
    await ping(m, 20, 'exit', 1);
    await engine.advance(m.id);
    expect(await results()).toEqual([true, false, true, false]);
    expect(events.map((e) => e.to)).toEqual(['online', 'offline', 'online', 'offline']);
  });

  it('takes no threshold: offline at the first miss even with alert_threshold 3', async () => {
    const m = await heartbeat({ alertThreshold: 3 });
    await ping(m, 10, 'fail');
    await engine.advance(m.id);
    expect((await reload(m.id)).status).toBe('offline');
  });

  it('steps a ping received before the deadline in the pass that judges the deadline, instead of going offline', async () => {
    const m = await heartbeat();
    await ping(m, 50);
    await moveTo(90);
    expect(await reload(m.id)).toMatchObject({ status: 'online', heartbeatDueAt: at(110) });
    expect(await deadlines.of(m.id)).toEqual(at(140));
  });

  it('steps the monitors whose deadline passed in the first batch of a pass, ahead of pinged ones with lower ids', async () => {
    const pinged = [await heartbeat(), await heartbeat(), await heartbeat(), await heartbeat()];
    const silent = await heartbeat();
    for (const m of pinged) await deadlines.set(m.id, at(1000));
    for (const m of pinged) await ping(m, 70);
    const small = new HeartbeatEngine({ ds, deadlines, now: () => clock, batchSize: 2 });
    clock = T0 + 90_000;
    // Two batches of the pass's three are left undone (a stopping worker's pass): the first batch
    // is what every pass reaches, so that is where the deadline must be judged.
    let batches = 0;
    expect(await small.tick(undefined, () => batches++ > 0)).toEqual({ stepped: 2, more: false });
    expect(await reload(silent.id)).toMatchObject({ status: 'offline', heartbeatDueAt: null });
    const statuses = await Promise.all(pinged.map(async (m) => (await reload(m.id)).status));
    expect(statuses.filter((s) => s === 'online')).toHaveLength(1);
    // The rest wait for the next pass, their pings still in the inbox: stepped then, not lost.
    await small.tick();
    expect(await Promise.all(pinged.map(async (m) => (await reload(m.id)).status))).toEqual(['online', 'online', 'online', 'online']);
  });

  it("judges a deadline that passes during a pass in the next batch, ahead of the pass's remaining pinged monitors", async () => {
    const pinged = [await heartbeat(), await heartbeat(), await heartbeat(), await heartbeat(), await heartbeat(), await heartbeat()];
    // Due at 65 (a period changed from its creation's, say): offline at 95.
    const silent = await heartbeat({ heartbeatDueAt: at(65) });
    for (const m of pinged) await deadlines.set(m.id, at(1000));
    for (const m of pinged) await ping(m, 70);
    await deadlines.set(silent.id, at(95));
    const small = new HeartbeatEngine({ ds, deadlines, now: () => clock, batchSize: 2 });
    clock = T0 + 90_000;
    // The product's clock reaches the silent one's due + grace after the pass's first batch; the
    // pass stops after its second, leaving a batch of pinged monitors for the next.
    let asked = 0;
    const shouldStop = (): boolean => {
      asked += 1;
      if (asked === 2) clock = T0 + 95_000;
      return asked > 2;
    };
    expect(await small.tick(undefined, shouldStop)).toEqual({ stepped: 4, more: false });
    expect(await reload(silent.id)).toMatchObject({ status: 'offline', heartbeatDueAt: null });
    expect((await incidents(silent.id))[0]).toMatchObject({ started_at: at(95) });
    const online = async (): Promise<number> =>
      (await Promise.all(pinged.map(async (m) => (await reload(m.id)).status))).filter((s) => s === 'online').length;
    expect(await online()).toBe(3);
    await small.tick();
    expect(await online()).toBe(6);
  });

  it('a paused monitor: pings recorded and consumed, nothing changes, no deadline', async () => {
    const m = await heartbeat({ status: 'paused' });
    await ping(m, 10);
    await ping(m, 20, 'fail');
    await engine.advance(m.id);
    expect((await reload(m.id)).status).toBe('paused');
    expect(await ds.query(`SELECT ping_id FROM heartbeat_ping_inbox WHERE monitor_id = $1`, [m.id])).toEqual([]);
    expect(events).toEqual([]);
    expect(await deadlines.of(m.id)).toBeUndefined();
  });

  it('in a maintenance window: goes offline on a miss but opens no downtime', async () => {
    const m = await heartbeat();
    const [w]: { id: number }[] = await ds.query(
      `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone) VALUES ($1, 'Upgrade', $2, 60, 'none', 'UTC') RETURNING id`,
      [m.ownerId, at(0)],
    );
    await ds.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)`, [w!.id, m.id]);
    await moveTo(90);
    expect(await reload(m.id)).toMatchObject({ status: 'offline', inMaintenance: true, openIncidentId: null });
    expect(await incidents(m.id)).toEqual([]);
  });

  it('follows a cron in its zone: due at the next cron time after the success', async () => {
    const m = await heartbeat({ heartbeatPeriod: null, heartbeatCron: '30 2 * * *', heartbeatTimezone: 'Europe/Berlin', heartbeatDueAt: new Date('2026-11-23T01:30:00.000Z') });
    await ping(m, 10);
    await engine.advance(m.id);
    // 02:30 in Berlin (UTC+1 in November) is 01:30 UTC, the next day.
    expect((await reload(m.id)).heartbeatDueAt).toEqual(new Date('2026-11-23T01:30:00.000Z'));
    expect(await deadlines.of(m.id)).toEqual(new Date('2026-11-23T01:30:30.000Z'));
  });
});
