import request from 'supertest';
import { aCaller, waitFor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';
import { MAX_BATCH, MAX_BATCHES_IN_FLIGHT, PingBatcher, type PingBatchTiming, type PingOutcome } from '../src/heartbeats/ping-batcher';

const h = useApiHarness({ PING_RATE_LIMIT_PER_MINUTE: '0' });
let auth: string;

beforeEach(async () => {
  ({ auth } = await aCaller(h.ds));
});

/** A new heartbeat monitor: its id and its token. */
async function heartbeat(): Promise<{ id: number; token: string }> {
  const res = await request(h.app)
    .post('/api/v1/monitors')
    .set('Authorization', auth)
    .send({ name: 'Backup', type: 'heartbeat', heartbeat_period: 60 });
  return { id: res.body.data.id, token: new URL(res.body.data.heartbeat_url).pathname.split('/')[2]! };
}

const success = (token: string) => ({
  token,
  ip: '192.0.2.1',
  input: {
    token,
    kind: 'success' as const,
    exitStatus: null,
    sourceIp: '192.0.2.1',
    userAgent: null,
    body: null,
    bodySize: 0,
    bodyTruncated: false,
  },
});

const committedPings = async (monitorId: number): Promise<number> =>
  Number((await h.ds.query(`SELECT count(*) AS n FROM heartbeat_pings WHERE monitor_id = $1`, [monitorId]))[0].n);

/** The pings' INSERTs waiting for a lock (the ones this test holds). */
const blockedInserts = async (): Promise<number> =>
  Number(
    (
      await h.ds.query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'WITH given AS%'`,
      )
    )[0].n,
  );

/** A ping's promise, and whether it has settled yet. */
function tracked(p: Promise<PingOutcome>): { outcome: Promise<PingOutcome>; settled: () => boolean } {
  let settled = false;
  const outcome = p.finally(() => {
    settled = true;
  });
  return { outcome, settled: () => settled };
}

describe('PingBatcher', () => {
  it('writes the next batch while earlier ones wait on their commit, and answers each ping only once its own batch committed', async () => {
    const held = await Promise.all(Array.from({ length: MAX_BATCHES_IN_FLIGHT - 1 }, () => heartbeat()));
    const free = await heartbeat();
    const batcher = new PingBatcher({ ds: h.ds, redis: h.redis, prefix: h.config.redis.queuePrefix });
    // FOR UPDATE conflicts with the KEY SHARE lock of the ping's foreign key check: each held
    // monitor's INSERT waits, uncommitted, until the lock is released.
    const lock = h.ds.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    try {
      await lock.query(`SELECT id FROM monitors WHERE id = ANY($1) FOR UPDATE`, [held.map((m) => m.id)]);
      // One batch per held monitor: each submitted once the one before is blocked in Postgres.
      const waiting = [];
      for (const [i, m] of held.entries()) {
        waiting.push(tracked(batcher.submit(success(m.token))));
        await waitFor(async () => (await blockedInserts()) === i + 1, { what: `${i + 1} ping INSERTs blocked` });
      }
      // MAX_BATCHES_IN_FLIGHT - 1 batches are in flight: the next ping starts its own, beside them.
      const answered = await batcher.submit(success(free.token));
      expect(answered).toEqual({ recorded: true, rate: { outcome: 'within' } });
      expect(await committedPings(free.id)).toBe(1);
      // Not one of the held pings has been answered, and none is on disk.
      expect(waiting.map((w) => w.settled())).toEqual(held.map(() => false));
      for (const m of held) expect(await committedPings(m.id)).toBe(0);
      await lock.rollbackTransaction();
      for (const [i, w] of waiting.entries()) {
        expect(await w.outcome).toEqual({ recorded: true, rate: { outcome: 'within' } });
        expect(await committedPings(held[i]!.id)).toBe(1);
      }
    } finally {
      if (lock.isTransactionActive) await lock.rollbackTransaction();
      await lock.release();
    }
  });

  it('holds pings past the cap of batches in flight until one commits, then answers them after their own commit', async () => {
    const held = await heartbeat();
    const later = await heartbeat();
    const batcher = new PingBatcher({ ds: h.ds, redis: h.redis, prefix: h.config.redis.queuePrefix, maxInFlight: 1 });
    const lock = h.ds.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    try {
      await lock.query(`SELECT id FROM monitors WHERE id = $1 FOR UPDATE`, [held.id]);
      const first = tracked(batcher.submit(success(held.token)));
      await waitFor(async () => (await blockedInserts()) === 1, { what: 'the first ping INSERT blocked' });
      const second = tracked(batcher.submit(success(later.token)));
      // The one batch allowed is in flight: the second ping waits for it, not written yet.
      await new Promise((r) => setTimeout(r, 200));
      expect([first.settled(), second.settled()]).toEqual([false, false]);
      expect(await committedPings(later.id)).toBe(0);
      await lock.rollbackTransaction();
      expect(await first.outcome).toEqual({ recorded: true, rate: { outcome: 'within' } });
      expect(await second.outcome).toEqual({ recorded: true, rate: { outcome: 'within' } });
      expect([await committedPings(held.id), await committedPings(later.id)]).toEqual([1, 1]);
    } finally {
      if (lock.isTransactionActive) await lock.rollbackTransaction();
      await lock.release();
    }
  });

  it(`splits the pings of one turn into batches of at most ${MAX_BATCH}, each its own script and statement`, async () => {
    const timings: PingBatchTiming[] = [];
    const batcher = new PingBatcher({ ds: h.ds, redis: h.redis, prefix: h.config.redis.queuePrefix, observe: (t) => timings.push(t) });
    // Unknown tokens: counted and looked up like known ones (docs/heartbeats.md), none limited.
    const outcomes = await Promise.all(Array.from({ length: MAX_BATCH * 2 + 1 }, (_, i) => batcher.submit(success(`unknown-${i}`))));
    expect(outcomes.every((o) => !o.recorded && o.rate.outcome === 'within')).toBe(true);
    expect(timings.map((t) => t.pings).sort((a, b) => b - a)).toEqual([MAX_BATCH, MAX_BATCH, 1]);
    expect(timings.every((t) => t.insertMs > 0 && t.countMs > 0)).toBe(true);
  });
});
