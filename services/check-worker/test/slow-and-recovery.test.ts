import { aMonitor, aUser } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';
import { useBatchDatabase } from './support/batch-database';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');

function outcome(monitorId: number, second: number, ok: boolean, responseTime = 100): CheckOutcome {
  const at = new Date(T0 + second * 1000);
  return {
    monitorId,
    configVersion: 1,
    scheduledAt: at,
    result: { ok, statusCode: ok ? 200 : 503, responseTime, error: ok ? null : 'Expected status 2xx, got 503', checkedAt: at, attempts: 1 },
  };
}

describe('slow responses and recovery confirmation (docs/alert-rules.md)', () => {
  const db = useBatchDatabase();
  const { reload } = db;
  const incidents = (id: number): Promise<{ resolved_at: Date | null }[]> => db.ds.query('SELECT resolved_at FROM incidents WHERE monitor_id = $1 ORDER BY id', [id]);

  it('puts a slow but successful check in warning (slow) without opening a downtime, and back online when fast', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds), { responseTimeThreshold: 500 });
    await recordCheckBatch(db.ds, [outcome(m.id, 0, true, 200)]);
    const slow = await recordCheckBatch(db.ds, [outcome(m.id, 30, true, 501)]);
    expect(slow).toEqual([expect.objectContaining({ from: 'online', to: 'warning', incidentId: null })]);
    expect(await reload(m.id)).toMatchObject({ status: 'warning', statusReason: 'slow', consecutiveFailures: 0, openIncidentId: null });
    // Exactly at the threshold is not slower than it.
    const fast = await recordCheckBatch(db.ds, [outcome(m.id, 60, true, 500)]);
    expect(fast).toEqual([expect.objectContaining({ from: 'warning', to: 'online' })]);
    expect(await reload(m.id)).toMatchObject({ status: 'online', statusReason: null });
    expect(await incidents(m.id)).toEqual([]);
  });

  it('tells a failing warning from a slow one', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds), { responseTimeThreshold: 500, alertThreshold: 3 });
    await recordCheckBatch(db.ds, [outcome(m.id, 0, false)]);
    expect(await reload(m.id)).toMatchObject({ status: 'warning', statusReason: 'failing', consecutiveFailures: 1 });
    await recordCheckBatch(db.ds, [outcome(m.id, 30, true, 900)]);
    expect(await reload(m.id)).toMatchObject({ status: 'warning', statusReason: 'slow', consecutiveFailures: 0 });
  });

  it('ignores slowness while the threshold is off', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [outcome(m.id, 0, true, 299_000)]);
    expect(await reload(m.id)).toMatchObject({ status: 'online', statusReason: null });
  });

  it('damps a flapping target with both thresholds: offline after 2 failures, online after 3 successes', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds), { alertThreshold: 2, recoveryThreshold: 3 });
    // up, down, up, down, down (offline), up, up, down, up, up, up (online)
    const pattern = [true, false, true, false, false, true, true, false, true, true, true];
    const seen: string[] = [];
    for (const [i, ok] of pattern.entries()) {
      // Each check is delivered twice: the redelivery must change nothing.
      await recordCheckBatch(db.ds, [outcome(m.id, i * 30, ok)]);
      await recordCheckBatch(db.ds, [outcome(m.id, i * 30, ok)]);
      seen.push((await reload(m.id)).status);
    }
    expect(seen).toEqual(['online', 'warning', 'online', 'warning', 'offline', 'offline', 'offline', 'offline', 'offline', 'offline', 'online']);
    const rows = await incidents(m.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.resolved_at?.getTime()).toBe(T0 + 10 * 30_000);
    expect(await reload(m.id)).toMatchObject({ consecutiveSuccesses: 0, consecutiveFailures: 0, openIncidentId: null });
  });

  it('keeps the downtime open while confirming, then ends it at the confirming check', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds), { recoveryThreshold: 2 });
    const down = await recordCheckBatch(db.ds, [outcome(m.id, 0, false)]);
    const incidentId = down[0]!.incidentId;
    // Both successes in one batch: the first confirms nothing yet, the second ends the downtime.
    const up = await recordCheckBatch(db.ds, [outcome(m.id, 30, true), outcome(m.id, 60, true)]);
    expect(up).toEqual([expect.objectContaining({ from: 'offline', to: 'online', incidentId })]);
    expect((await incidents(m.id))[0]!.resolved_at?.getTime()).toBe(T0 + 60_000);
  });
});
