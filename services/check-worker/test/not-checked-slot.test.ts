import { aMonitor, aUser } from '@uptime/testing';
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

  it('records nothing for a slot that has a result already', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const written: CheckOutcome = {
      monitorId: m.id,
      configVersion: 1,
      scheduledAt: SLOT,
      result: { ok: true, statusCode: 200, responseTime: 90, error: null, checkedAt: SLOT, attempts: 1 },
    };
    await recordCheckBatch(db.ds, [written]);
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
});
