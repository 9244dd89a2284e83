import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import { createRedisConnection, HeartbeatDeadlines } from '@uptime/queues';
import { createLogger } from '@uptime/logger';
import { aUser, openTestDatabase, resetDatabase, resetRedis } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { HeartbeatEngine } from '../src/heartbeat/heartbeat-engine';
import { startHeartbeatLoop } from '../src/heartbeat/heartbeat-loop';
import type { StatusEvent } from '../src/status-event';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const at = (second: number): Date => new Date(T0 + second * 1000);

/**
 * The heartbeat engine's passes (docs/heartbeats.md, "How it is built"): many monitors' pings in
 * one transaction per batch, each ping stepped once, in its monitor's order, and nothing lost
 * when a batch fails half-way.
 */
describe('heartbeat passes: pings of many monitors stepped in batches', () => {
  let ds: DataSource;
  let redis: Redis;
  let deadlines: HeartbeatDeadlines;
  const prefix = `${process.env.QUEUE_PREFIX}:heartbeat-batches`;

  beforeAll(async () => {
    ds = await openTestDatabase();
    redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', 'heartbeat-batches-test');
    deadlines = new HeartbeatDeadlines(redis, prefix);
  });
  beforeEach(async () => {
    await resetDatabase(ds);
    await resetRedis(prefix);
  });
  afterAll(async () => {
    await redis.quit();
    await ds.destroy();
  });

  /** An engine on the product clock at `second`, and what it published, batch by batch. */
  function anEngine(second: number, batchSize?: number) {
    const batches: { events: StatusEvent[]; outcomes: CheckOutcome[] }[] = [];
    const engine = new HeartbeatEngine({
      ds,
      deadlines,
      batchSize,
      now: () => T0 + second * 1000,
      published: async (events, outcomes) => {
        batches.push({ events, outcomes });
      },
    });
    return { engine, batches };
  }

  /** `count` heartbeats every 60 s, grace 30 s, created at T0 as the API does: due at 60, deadline at 90. */
  async function heartbeats(count: number): Promise<number[]> {
    const user = await aUser(ds);
    const rows: { id: number }[] = await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, status, type, heartbeat_period, heartbeat_grace, heartbeat_token, heartbeat_due_at)
       SELECT $1, 'hb' || n, '', 30, 60, 'pending', 'heartbeat', 60, 30, 'token-' || n || '-' || $2, $3 FROM generate_series(1, $4) n RETURNING id`,
      [user.id, Math.random(), at(60), count],
    );
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    await deadlines.setMany(ids.map((monitorId) => ({ monitorId, at: at(90) })));
    return ids;
  }

  /** Pings as the API records them (the INSERT whose trigger fills the inbox): one row per (monitor, second, kind). */
  async function ping(ids: number[], second: number, kind: 'success' | 'fail' | 'exit' = 'success', exitStatus: number | null = null): Promise<void> {
    await ds.query(`INSERT INTO heartbeat_pings (monitor_id, kind, exit_status, received_at) SELECT unnest($1::int[]), $2, $3, $4`, [ids, kind, exitStatus, at(second)]);
  }

  const resultsPerMonitor = async (): Promise<Map<number, boolean[]>> => {
    const rows: { monitor_id: number; oks: boolean[] }[] = await ds.query(
      `SELECT monitor_id, array_agg(ok ORDER BY scheduled_at) AS oks FROM check_results GROUP BY monitor_id`,
    );
    return new Map(rows.map((r) => [r.monitor_id, r.oks]));
  };
  const inbox = async (): Promise<number> => (await ds.query(`SELECT count(*)::int AS n FROM heartbeat_ping_inbox`))[0].n;

  it('steps 3 pings of each of 300 monitors in one pass of 3 transactions of 100 monitors, one result per ping', async () => {
    const ids = await heartbeats(300);
    await ping(ids, 10);
    await ping(ids, 20);
    await ping(ids, 30);
    const { engine, batches } = anEngine(40, 100);

    expect(await engine.tick()).toEqual({ stepped: 300, more: false });

    // One publication per committed batch, each of 100 monitors' 300 verdicts.
    expect(batches.map((b) => new Set(b.outcomes.map((o) => o.monitorId)).size)).toEqual([100, 100, 100]);
    const results = await resultsPerMonitor();
    expect(results.size).toBe(300);
    for (const id of ids) expect(results.get(id)).toEqual([true, true, true]);
    expect(await inbox()).toBe(0);
    const states: { status: string; n: number }[] = await ds.query(`SELECT status, count(*)::int AS n FROM monitors GROUP BY status`);
    expect(states).toEqual([{ status: 'online', n: 300 }]);
    // Due one period after the last success, offline a grace later.
    expect(await deadlines.of(ids[0]!)).toEqual(at(120));
    expect(await deadlines.of(ids[299]!)).toEqual(at(120));
    // A second pass finds nothing to do.
    expect(await engine.tick()).toEqual({ stepped: 0, more: false });
    expect((await resultsPerMonitor()).get(ids[0]!)).toHaveLength(3);
  });

  it("keeps each monitor's order: success, fail, success, exit 3 in one pass end offline, with four results and events in that order", async () => {
    const [a, b] = await heartbeats(2);
    // Interleaved in id order across the two monitors; b's four pings in the same second.
    await ping([a!], 10);
    await ping([b!], 10);
    await ping([a!, b!], 11, 'fail');
    await ping([a!, b!], 12, 'exit', 0);
    await ping([a!, b!], 13, 'exit', 3);
    const { engine, batches } = anEngine(20);
    await engine.tick();
    const results = await resultsPerMonitor();
    expect(results.get(a!)).toEqual([true, false, true, false]);
    expect(results.get(b!)).toEqual([true, false, true, false]);
    const events = batches.flatMap((x) => x.events);
    for (const id of [a!, b!]) expect(events.filter((e) => e.monitorId === id).map((e) => e.to)).toEqual(['online', 'offline', 'online', 'offline']);
    const statuses: { status: string }[] = await ds.query(`SELECT status FROM monitors WHERE id = ANY($1)`, [[a, b]]);
    expect(statuses).toEqual([{ status: 'offline' }, { status: 'offline' }]);
  });

  it('steps each ping once when two passes run at once (two workers whose lock expired)', async () => {
    const ids = await heartbeats(200);
    await ping(ids, 10);
    await ping(ids, 11, 'fail');
    const one = anEngine(20, 50);
    const two = anEngine(20, 50);
    await Promise.all([one.engine.tick(), two.engine.tick()]);
    const results = await resultsPerMonitor();
    expect(results.size).toBe(200);
    for (const id of ids) expect(results.get(id)).toEqual([true, false]);
    const offline = [...one.batches, ...two.batches].flatMap((b) => b.events).filter((e) => e.to === 'offline');
    expect(offline).toHaveLength(200);
    expect(await inbox()).toBe(0);
  });

  it('loses nothing when a batch fails half-way: its pings stay waiting and the next pass steps each once', async () => {
    const ids = await heartbeats(120);
    await ping(ids, 10);
    await ping(ids, 11, 'fail');
    const victim = ids[60]!;
    // A real failure inside the transaction, after every monitor of the batch was stepped and
    // its results inserted: the status event of one monitor is refused.
    await ds.query(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.monitor_id = ${victim} THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await ds.query(`CREATE TRIGGER refuse_event BEFORE INSERT ON status_events FOR EACH ROW EXECUTE FUNCTION refuse_event()`);
    const failing = anEngine(20, 500);
    try {
      await expect(failing.engine.tick()).rejects.toThrow('refused for the test');
    } finally {
      await ds.query(`DROP TRIGGER refuse_event ON status_events`);
      await ds.query(`DROP FUNCTION refuse_event()`);
    }
    expect(failing.batches).toEqual([]);
    expect(await inbox()).toBe(240);
    expect((await resultsPerMonitor()).size).toBe(0);
    expect(await deadlines.of(victim)).toEqual(at(90));

    const { engine } = anEngine(21, 500);
    await engine.tick();
    const results = await resultsPerMonitor();
    for (const id of ids) expect(results.get(id)).toEqual([true, false]);
    expect(await inbox()).toBe(0);
    // Offline after its fail: nothing is due, so no deadline is left.
    expect(await deadlines.of(victim)).toBeUndefined();
  });

  it('judges every passed deadline of a large backlog in one pass, and none not yet passed', async () => {
    const ids = await heartbeats(1200);
    await deadlines.setMany(ids.slice(1000).map((monitorId) => ({ monitorId, at: at(91) })));
    const { engine } = anEngine(90, 500);
    expect(await engine.tick()).toEqual({ stepped: 1000, more: false });
    const states: { status: string; n: number }[] = await ds.query(`SELECT status, count(*)::int AS n FROM monitors GROUP BY status ORDER BY status`);
    expect(states).toEqual([
      { status: 'offline', n: 1000 },
      { status: 'pending', n: 200 },
    ]);
    expect(await deadlines.count()).toBe(200);
  });

  it('stops after the batch in progress, leaving the rest of a backlog for the next worker', async () => {
    const ids = await heartbeats(2000);
    const { engine, batches } = anEngine(90, 100);
    const loop = startHeartbeatLoop({ engine, redis, prefix, logger: createLogger({ level: 'silent', service: 'heartbeat-batches-test' }), tickMs: 5 });
    while (batches.length === 0) await new Promise((r) => setTimeout(r, 5));
    await loop.stop();
    const doneAtStop = batches.length;
    // Nothing more after stop() resolved, and far from the whole backlog.
    await new Promise((r) => setTimeout(r, 100));
    expect(batches.length).toBe(doneAtStop);
    expect(doneAtStop).toBeLessThan(ids.length / 100);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM monitors WHERE status = 'offline'`);
    expect(n).toBe(doneAtStop * 100);
    // The next worker takes up the rest.
    const next = anEngine(90, 500);
    await next.engine.tick();
    expect((await ds.query(`SELECT count(*)::int AS n FROM monitors WHERE status = 'offline'`))[0].n).toBe(2000);
  });
});
