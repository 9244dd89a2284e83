import { Monitor, type DataSource } from '@uptime/db';
import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const at = (second: number): Date => new Date(T0 + second * 1000);

function outcome(monitorId: number, second: number, ok: boolean): CheckOutcome {
  return {
    monitorId,
    configVersion: 1,
    scheduledAt: at(second),
    result: { ok, statusCode: ok ? 200 : 503, responseTime: 50, error: ok ? null : 'Expected status 2xx, got 503', checkedAt: at(second), attempts: 1 },
  };
}

describe('checks during maintenance windows', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await openTestDatabase();
  });
  beforeEach(() => resetDatabase(ds));
  afterAll(() => ds.destroy());

  /** A monitor covered by a one-off window from T0+60 s, 5 minutes long (until T0+360 s). */
  async function monitorWithWindow(): Promise<Monitor> {
    const owner = await aUser(ds);
    const m = await aMonitor(ds, owner);
    const [w]: { id: number }[] = await ds.query(
      `INSERT INTO maintenance_windows (owner_id, name, starts_at, duration_minutes, repeat, timezone) VALUES ($1, 'Upgrade', $2, 5, 'none', 'Europe/Paris') RETURNING id`,
      [owner.id, at(60)],
    );
    await ds.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) VALUES ($1, $2)`, [w!.id, m.id]);
    return m;
  }

  const reload = (id: number) => ds.getRepository(Monitor).findOneByOrFail({ id });
  const flags = (id: number) => ds.query('SELECT ok, maintenance FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [id]);
  const incidents = (id: number) => ds.query('SELECT id, started_at, resolved_at FROM incidents WHERE monitor_id = $1 ORDER BY id', [id]);
  const rolledUp = async (id: number): Promise<number> => (await ds.query('SELECT COALESCE(sum(checks), 0)::int AS n FROM check_rollups_5m WHERE monitor_id = $1', [id]))[0].n;

  it('opens no downtime during a window, and opens it when the window ends with the monitor offline', async () => {
    const m = await monitorWithWindow();
    await recordCheckBatch(ds, [outcome(m.id, 0, true)]);

    const down = await recordCheckBatch(ds, [outcome(m.id, 120, false)]);
    expect(down).toEqual([expect.objectContaining({ from: 'online', to: 'offline', incidentId: null })]);
    expect(await recordCheckBatch(ds, [outcome(m.id, 240, false)])).toEqual([]);
    expect(await reload(m.id)).toMatchObject({ status: 'offline', inMaintenance: true, openIncidentId: null });
    expect(await incidents(m.id)).toEqual([]);

    // First check after the window: still failing, so the downtime opens, dated at the window's end.
    const after = await recordCheckBatch(ds, [outcome(m.id, 420, false)]);
    expect(after).toEqual([expect.objectContaining({ from: 'offline', to: 'offline', incidentId: expect.any(Number) })]);
    const [incident] = await incidents(m.id);
    expect(incident.id).toBe(after[0]!.incidentId);
    expect(incident.started_at.getTime()).toBe(T0 + 360_000);
    expect(await reload(m.id)).toMatchObject({ status: 'offline', inMaintenance: false, openIncidentId: incident.id });
    // A redelivery of that check changes nothing.
    expect(await recordCheckBatch(ds, [outcome(m.id, 420, false)])).toEqual([]);
    expect(await incidents(m.id)).toHaveLength(1);

    expect(await flags(m.id)).toEqual([
      { ok: true, maintenance: false },
      { ok: false, maintenance: true },
      { ok: false, maintenance: true },
      { ok: false, maintenance: false },
    ]);
    expect(await rolledUp(m.id)).toBe(2);
    // The public page's daily bars read the daily rollup: the time in maintenance is no downtime there.
    expect(await ds.query('SELECT checks, successes FROM check_rollups_1d WHERE monitor_id = $1', [m.id])).toEqual([{ checks: 2, successes: 1 }]);
  });

  it('keeps a downtime begun before a window open through it, and opens none for a failure inside it', async () => {
    const m = await monitorWithWindow();
    const down = await recordCheckBatch(ds, [outcome(m.id, 0, false)]);
    const incidentId = down[0]!.incidentId!;
    expect(incidentId).toEqual(expect.any(Number));

    // The window starts during the outage: no new downtime, the open one stays open.
    expect(await recordCheckBatch(ds, [outcome(m.id, 120, false)])).toEqual([]);
    expect(await reload(m.id)).toMatchObject({ status: 'offline', inMaintenance: true, openIncidentId: incidentId });

    // It recovers inside the window: the downtime already announced is resolved.
    const up = await recordCheckBatch(ds, [outcome(m.id, 180, true)]);
    expect(up).toEqual([expect.objectContaining({ from: 'offline', to: 'online', incidentId })]);
    // And fails again inside it: no downtime.
    expect(await recordCheckBatch(ds, [outcome(m.id, 300, false)])).toEqual([expect.objectContaining({ to: 'offline', incidentId: null })]);
    expect(await incidents(m.id)).toHaveLength(1);

    // Still failing after the window: a second downtime from its end.
    const after = await recordCheckBatch(ds, [outcome(m.id, 400, false)]);
    expect(after).toEqual([expect.objectContaining({ from: 'offline', to: 'offline', incidentId: expect.any(Number) })]);
    const list = await incidents(m.id);
    expect(list).toHaveLength(2);
    expect(list[1].started_at.getTime()).toBe(T0 + 360_000);
    expect(await rolledUp(m.id)).toBe(2);
  });

  it('opens nothing when the monitor is back online by the end of the window', async () => {
    const m = await monitorWithWindow();
    await recordCheckBatch(ds, [outcome(m.id, 120, false)]);
    const events = await recordCheckBatch(ds, [outcome(m.id, 400, true)]);
    expect(events).toEqual([expect.objectContaining({ from: 'offline', to: 'online', incidentId: null })]);
    expect(await incidents(m.id)).toEqual([]);
    expect(await reload(m.id)).toMatchObject({ status: 'online', inMaintenance: false });
  });
});
