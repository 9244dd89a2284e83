import { aMonitor, aUser, waitFor } from '@uptime/testing';
import { insertNotCheckedSlot } from '../src/check-batch.repository';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';
import { useBatchDatabase } from './support/batch-database';

const SLOT = new Date('2026-12-07T01:00:00.000Z');
const NEXT = new Date(SLOT.getTime() + 30_000);

describe('insertNotCheckedSlot', () => {
  const db = useBatchDatabase();
  const spansOf = async (monitorId: number) =>
    (
      (await db.ds.query('SELECT started_at, ended_at FROM no_data_spans WHERE monitor_id = $1', [monitorId])) as {
        started_at: Date;
        ended_at: Date;
      }[]
    ).map((r) => ({ from: r.started_at.toISOString(), to: r.ended_at.toISOString() }));

  it('records the slot as one no-data span and leaves the monitor, its results and its events alone', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const before = await db.reload(m.id);
    await insertNotCheckedSlot(db.ds, { monitorId: m.id, startedAt: SLOT, endedAt: NEXT });
    await insertNotCheckedSlot(db.ds, { monitorId: m.id, startedAt: SLOT, endedAt: NEXT });
    expect(await spansOf(m.id)).toEqual([{ from: SLOT.toISOString(), to: NEXT.toISOString() }]);
    const after = await db.reload(m.id);
    expect({ status: after.status, lastCheck: after.lastCheck }).toEqual({ status: before.status, lastCheck: before.lastCheck });
    expect(await db.ds.query('SELECT 1 FROM check_results WHERE monitor_id = $1', [m.id])).toEqual([]);
    expect(await db.ds.query('SELECT 1 FROM status_events WHERE monitor_id = $1', [m.id])).toEqual([]);
  });

  const resultOf = (monitorId: number): CheckOutcome => ({
    monitorId,
    configVersion: 1,
    scheduledAt: SLOT,
    result: { ok: true, statusCode: 200, responseTime: 90, error: null, checkedAt: SLOT, attempts: 1 },
  });
  const resultCount = async (monitorId: number) =>
    ((await db.ds.query('SELECT count(*)::int AS n FROM check_results WHERE monitor_id = $1 AND scheduled_at = $2', [monitorId, SLOT])) as { n: number }[])[0].n;

  it('records nothing for a slot that has a result already', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [resultOf(m.id)]);
    await insertNotCheckedSlot(db.ds, { monitorId: m.id, startedAt: SLOT, endedAt: NEXT });
    expect(await spansOf(m.id)).toEqual([]);
  });

  it('records nothing for a monitor paused or deleted meanwhile', async () => {
    const owner = await aUser(db.ds);
    const paused = await aMonitor(db.ds, owner);
    await db.ds.query(`UPDATE monitors SET status = 'paused' WHERE id = $1`, [paused.id]);
    const deleted = await aMonitor(db.ds, owner);
    await db.ds.query('DELETE FROM monitors WHERE id = $1', [deleted.id]);
    await insertNotCheckedSlot(db.ds, { monitorId: paused.id, startedAt: SLOT, endedAt: NEXT });
    await insertNotCheckedSlot(db.ds, { monitorId: deleted.id, startedAt: SLOT, endedAt: NEXT });
    expect(await db.ds.query('SELECT 1 FROM no_data_spans WHERE monitor_id = ANY($1)', [[paused.id, deleted.id]])).toEqual([]);
  });

  // A process stalled past its liveness TTL may still write a result it held when its peer gave
  // the slot up (docs/reliability.md): whichever commits first, the slot ends with the result only.
  it('gives the slot back to a result written after it was recorded as not checked', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await insertNotCheckedSlot(db.ds, { monitorId: m.id, startedAt: SLOT, endedAt: NEXT });
    expect(await spansOf(m.id)).toHaveLength(1);
    await recordCheckBatch(db.ds, [resultOf(m.id)]);
    expect(await spansOf(m.id)).toEqual([]);
    expect(await resultCount(m.id)).toBe(1);
    expect(await db.reload(m.id)).toMatchObject({ status: 'online' });
  });

  it('waits for a result batch in flight on the monitor and then records nothing', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const batch = db.ds.createQueryRunner();
    await batch.connect();
    await batch.startTransaction();
    try {
      // A batch's transaction as recordCheckBatch() runs it: the monitor's row lock, then its result.
      await batch.query('SELECT id FROM monitors WHERE id = $1 FOR NO KEY UPDATE', [m.id]);
      await batch.query('INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, $2, true)', [m.id, SLOT]);
      const giveUp = insertNotCheckedSlot(db.ds, { monitorId: m.id, startedAt: SLOT, endedAt: NEXT });
      await waitFor(
        async () =>
          ((await db.ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as { n: number }[])[0].n === 1,
        { what: 'the not-checked record waiting for the batch' },
      );
      await batch.commitTransaction();
      await giveUp;
    } finally {
      if (batch.isTransactionActive) await batch.rollbackTransaction();
      await batch.release();
    }
    expect(await spansOf(m.id)).toEqual([]);
    expect(await resultCount(m.id)).toBe(1);
  });
});
