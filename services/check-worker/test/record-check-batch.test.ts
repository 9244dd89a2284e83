import { createDataSource, Monitor, type DataSource } from '@uptime/db';
import { aMonitor, aUser } from '@uptime/testing';
import type { ProbeResult } from '@uptime/probe';
import { isDatabaseUnavailable } from '../src/database-unavailable';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';
import { useBatchDatabase } from './support/batch-database';

const T0 = Date.parse('2026-11-22T10:00:00.000Z');

function outcome(monitorId: number, second: number, ok: boolean, overrides: Partial<ProbeResult> = {}): CheckOutcome {
  const at = new Date(T0 + second * 1000);
  return {
    monitorId,
    configVersion: 1,
    scheduledAt: at,
    result: { ok, statusCode: ok ? 200 : 500, responseTime: ok ? 120 : 80, error: ok ? null : 'Expected status 2xx, got 500', checkedAt: at, attempts: 1, ...overrides },
  };
}

/** The SQL a data source sends while `run` runs, in order (one entry per round trip). */
async function statementsDuring(ds: DataSource, run: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const listener = { beforeQuery: ({ query }: { query: string }) => void statements.push(query) };
  ds.subscribers.push(listener);
  try {
    await run();
  } finally {
    ds.subscribers.splice(ds.subscribers.indexOf(listener), 1);
  }
  return statements;
}

describe('recordCheckBatch', () => {
  const db = useBatchDatabase();
  const { reload } = db;

  it('stores the timing phases of a check, saturating at the smallint limit, and none when absent', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [
      outcome(m.id, 0, true, { timings: { dns: 3, connect: 7, tls: null, firstByte: 40_000 } }),
      outcome(m.id, 30, true),
    ]);
    const rows = await db.ds.query('SELECT dns_ms, connect_ms, tls_ms, first_byte_ms FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [m.id]);
    expect(rows).toEqual([
      { dns_ms: 3, connect_ms: 7, tls_ms: null, first_byte_ms: 32767 },
      { dns_ms: null, connect_ms: null, tls_ms: null, first_byte_ms: null },
    ]);
  });

  it('gives up a write blocked past its statement timeout, releasing its locks and connection, and keeps the results for later', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    // Another transaction holds the monitor's row (as a write given up on, still running, did).
    const holder = db.ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query('SELECT id FROM monitors WHERE id = $1 FOR UPDATE', [m.id]);
    try {
      const blocked = await recordCheckBatch(db.ds, [outcome(m.id, 0, true)], { statementTimeoutMs: 300 }).catch((err: unknown) => err);
      expect(blocked).toMatchObject({ driverError: expect.objectContaining({ code: '57014' }) });
      // Kept by the result backlog and written again later, not dropped as a refused batch.
      expect(isDatabaseUnavailable(blocked)).toBe(true);
      const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM check_results WHERE monitor_id = $1', [m.id]);
      expect(count).toBe(0);
      // The cancelled transaction rolled back: no session is left waiting on the row.
      const waiting = await db.ds.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      expect(waiting).toEqual([{ n: 0 }]);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    await recordCheckBatch(db.ds, [outcome(m.id, 0, true)], { statementTimeoutMs: 300 });
    expect(await reload(m.id)).toMatchObject({ status: 'online' });
  });

  it('rolls a write back at its next statement once its caller has given up on it (the signal aborted)', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const late = new Error('writing results made no progress for 5000 ms');
    const write = recordCheckBatch(db.ds, [outcome(m.id, 0, false)], { watch: { signal: AbortSignal.abort(late), progress: () => undefined } });
    await expect(write).rejects.toBe(late);
    const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM check_results WHERE monitor_id = $1', [m.id]);
    expect(count).toBe(0);
    expect(await reload(m.id)).toMatchObject({ status: 'pending', consecutiveFailures: 0 });
  });

  it('reports progress after every statement of the write, COMMIT included (its deadline is on progress)', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    let progress = 0;
    const watch = { signal: new AbortController().signal, progress: () => void (progress += 1) };
    const statements = await statementsDuring(db.ds, () => recordCheckBatch(db.ds, [outcome(m.id, 0, false)], { statementTimeoutMs: 5000, watch }));
    expect(statements.length).toBeGreaterThan(3);
    expect(progress).toBe(statements.length);
  });

  it('stores a check older than the newest one as history without moving the state', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [outcome(m.id, 60, true)]);
    // Written back late (another worker's backlog after an outage): a failure from before.
    const events = await recordCheckBatch(db.ds, [outcome(m.id, 30, false)]);
    expect(events).toEqual([]);
    expect(await reload(m.id)).toMatchObject({ status: 'online', consecutiveFailures: 0, openIncidentId: null });
    expect((await reload(m.id)).lastCheck?.getTime()).toBe(T0 + 60_000);
    const rows = await db.ds.query('SELECT ok FROM check_results WHERE monitor_id = $1 ORDER BY scheduled_at', [m.id]);
    expect(rows).toEqual([{ ok: false }, { ok: true }]);
  });

  it('records results, moves the monitor online and keeps its last check facts', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const events = await recordCheckBatch(db.ds, [outcome(m.id, 0, true, { responseTime: 42 })]);
    const after = await reload(m.id);
    expect(after).toMatchObject({ status: 'online', consecutiveFailures: 0, responseTime: 42, openIncidentId: null });
    expect(after.lastCheck?.getTime()).toBe(T0);
    expect(after.lastSuccess?.getTime()).toBe(T0);
    expect(after.lastFailure).toBeNull();
    expect(events).toEqual([expect.objectContaining({ monitorId: m.id, from: 'pending', to: 'online', incidentId: null })]);
    const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM check_results WHERE monitor_id = $1', [m.id]);
    expect(count).toBe(1);
  });

  it('opens one incident on the way down and closes it with its duration on recovery', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [outcome(m.id, 0, true)]);
    const down = await recordCheckBatch(db.ds, [outcome(m.id, 10, false)]);
    expect(down).toEqual([expect.objectContaining({ from: 'online', to: 'offline', incidentId: expect.any(Number) })]);
    const incidentId = down[0]!.incidentId!;
    expect(await recordCheckBatch(db.ds, [outcome(m.id, 20, false)])).toEqual([]);
    const up = await recordCheckBatch(db.ds, [outcome(m.id, 70, true)]);
    expect(up).toEqual([expect.objectContaining({ from: 'offline', to: 'online', incidentId })]);
    const [incident] = await db.ds.query('SELECT started_at, resolved_at, duration, status_code, error FROM incidents WHERE id = $1', [incidentId]);
    expect(incident.started_at.getTime()).toBe(T0 + 10_000);
    expect(incident.resolved_at.getTime()).toBe(T0 + 70_000);
    expect(incident.duration).toBe(60);
    expect(incident.status_code).toBe(500);
    const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM incidents');
    expect(count).toBe(1);
    expect((await reload(m.id)).openIncidentId).toBeNull();
  });

  it("opens the downtimes of a batch in one statement, each its monitor's, and writes one opened and closed in the batch resolved", async () => {
    const user = await aUser(db.ds);
    const monitors = [await aMonitor(db.ds, user), await aMonitor(db.ds, user), await aMonitor(db.ds, user)];
    await recordCheckBatch(db.ds, monitors.map((m) => outcome(m.id, 0, true)));
    const [a, b, c] = monitors.map((m) => m.id) as [number, number, number];
    let events: Awaited<ReturnType<typeof recordCheckBatch>> = [];
    const statements = await statementsDuring(db.ds, async () => {
      events = await recordCheckBatch(db.ds, [outcome(a, 10, false), outcome(b, 10, false), outcome(c, 10, false), outcome(b, 40, true)]);
    });
    expect(statements.filter((q) => q.includes('INSERT INTO alerts'))).toHaveLength(1);
    const incidents: { id: number; monitor_id: number; started_at: Date; resolved_at: Date | null; duration: number | null; status_code: number }[] = await db.ds.query(
      'SELECT id, monitor_id, started_at, resolved_at, duration, status_code FROM incidents ORDER BY monitor_id',
    );
    expect(incidents.map((i) => [i.monitor_id, i.started_at.getTime(), i.resolved_at?.getTime() ?? null, i.duration, i.status_code])).toEqual([
      [a, T0 + 10_000, null, null, 500],
      [b, T0 + 10_000, T0 + 40_000, 30, 500],
      [c, T0 + 10_000, null, null, 500],
    ]);
    const idOf = (monitorId: number) => incidents.find((i) => i.monitor_id === monitorId)!.id;
    expect(events.map((e) => [e.monitorId, e.to, e.incidentId])).toEqual([
      [a, 'offline', idOf(a)],
      [b, 'offline', idOf(b)],
      [c, 'offline', idOf(c)],
      [b, 'online', idOf(b)],
    ]);
    expect([(await reload(a)).openIncidentId, (await reload(b)).openIncidentId, (await reload(c)).openIncidentId]).toEqual([idOf(a), null, idOf(c)]);
    // A downtime opened later by its own statement takes the next id of the same sequence.
    const [next] = await recordCheckBatch(db.ds, [outcome(b, 70, false)]);
    expect(next!.incidentId).toBeGreaterThan(Math.max(...incidents.map((i) => i.id)));
  });

  it('changes nothing when the same result is delivered twice', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const first = await recordCheckBatch(db.ds, [outcome(m.id, 0, false)]);
    expect(first).toHaveLength(1);
    const again = await recordCheckBatch(db.ds, [outcome(m.id, 0, false)]);
    expect(again).toEqual([]);
    const after = await reload(m.id);
    expect(after.consecutiveFailures).toBe(1);
    const [{ results }] = await db.ds.query('SELECT count(*)::int AS results FROM check_results');
    const [{ events }] = await db.ds.query('SELECT count(*)::int AS events FROM status_events');
    const [{ checks }] = await db.ds.query('SELECT sum(checks)::int AS checks FROM check_rollups_5m');
    expect([results, events, checks]).toEqual([1, 1, 1]);
  });

  it('shows warning before offline with alert_threshold', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds), { alertThreshold: 3 });
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) {
      await recordCheckBatch(db.ds, [outcome(m.id, i, false)]);
      statuses.push((await reload(m.id)).status);
    }
    expect(statuses).toEqual(['warning', 'warning', 'offline']);
  });

  it('applies several results of one monitor in one batch in scheduled order', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const events = await recordCheckBatch(db.ds, [outcome(m.id, 2, true), outcome(m.id, 1, false), outcome(m.id, 0, true)]);
    expect(events.map((e) => `${e.from}>${e.to}`)).toEqual(['pending>online', 'online>offline', 'offline>online']);
    expect((await reload(m.id)).status).toBe('online');
  });

  it('drops results of paused and deleted monitors and of outdated configurations', async () => {
    const owner = await aUser(db.ds);
    const paused = await aMonitor(db.ds, owner, { status: 'paused' });
    const updated = await aMonitor(db.ds, owner, { configVersion: 2 });
    const gone = await aMonitor(db.ds, owner);
    await db.ds.getRepository(Monitor).delete({ id: gone.id });
    const events = await recordCheckBatch(db.ds, [outcome(paused.id, 0, false), outcome(updated.id, 0, false), outcome(gone.id, 0, false)]);
    expect(events).toEqual([]);
    const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM check_results');
    expect(count).toBe(0);
    expect((await reload(paused.id)).status).toBe('paused');
    expect((await reload(updated.id)).status).toBe('pending');
  });

  it('keeps rollups with counts, sums, extremes and a latency histogram', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    await recordCheckBatch(db.ds, [
      outcome(m.id, 0, true, { responseTime: 10 }),
      outcome(m.id, 1, true, { responseTime: 300 }),
      outcome(m.id, 2, false, { responseTime: null, statusCode: null }),
    ]);
    await recordCheckBatch(db.ds, [outcome(m.id, 3, true, { responseTime: 40 })]);
    const [row] = await db.ds.query('SELECT checks, successes, rt_count, rt_sum::int, rt_min, rt_max, rt_hist FROM check_rollups_1h WHERE monitor_id = $1', [m.id]);
    expect(row).toMatchObject({ checks: 4, successes: 3, rt_count: 3, rt_sum: 350, rt_min: 10, rt_max: 300 });
    expect(row.rt_hist[0]).toBe(1); // 10 ms ≤ 10
    expect(row.rt_hist[2]).toBe(1); // 40 ms ≤ 50
    expect(row.rt_hist[7]).toBe(1); // 300 ms ≤ 300
    expect(row.rt_hist.reduce((a: number, b: number) => a + b, 0)).toBe(3);
  });

  it('opens a batch with its statement timeout in one round trip and adds to every rollup level in one statement', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const statements = await statementsDuring(db.ds, () => recordCheckBatch(db.ds, [outcome(m.id, 0, true, { responseTime: 10 })], { statementTimeoutMs: 5000 }));
    expect(statements[0]).toBe('START TRANSACTION; SET LOCAL statement_timeout = 5000');
    expect(statements.filter((q) => q.includes('statement_timeout'))).toHaveLength(1);
    const rollups = statements.filter((q) => q.includes('check_rollups_'));
    expect(rollups).toHaveLength(1);
    for (const table of ['check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d']) expect(rollups[0]).toContain(`INSERT INTO ${table} `);
    expect(statements.at(-1)).toBe('COMMIT');
    // Into the same buckets again (ON CONFLICT in each table), and into the next 5-minute one.
    await recordCheckBatch(db.ds, [outcome(m.id, 1, false, { responseTime: 30 }), outcome(m.id, 400, true, { responseTime: 20 })], { statementTimeoutMs: 5000 });
    const rows = async (table: string) =>
      db.ds.query(`SELECT bucket, checks, successes, rt_count, rt_sum::int, rt_min, rt_max FROM ${table} WHERE monitor_id = $1 ORDER BY bucket`, [m.id]);
    const at = (iso: string) => new Date(iso);
    expect(await rows('check_rollups_5m')).toEqual([
      { bucket: at('2026-11-22T10:00:00Z'), checks: 2, successes: 1, rt_count: 2, rt_sum: 40, rt_min: 10, rt_max: 30 },
      { bucket: at('2026-11-22T10:05:00Z'), checks: 1, successes: 1, rt_count: 1, rt_sum: 20, rt_min: 20, rt_max: 20 },
    ]);
    expect(await rows('check_rollups_1h')).toEqual([{ bucket: at('2026-11-22T10:00:00Z'), checks: 3, successes: 2, rt_count: 3, rt_sum: 60, rt_min: 10, rt_max: 30 }]);
    expect(await rows('check_rollups_1d')).toEqual([{ bucket: at('2026-11-22T00:00:00Z'), checks: 3, successes: 2, rt_count: 3, rt_sum: 60, rt_min: 10, rt_max: 30 }]);
  });

  it('leaves the pooled connection as it was after a batch with a statement timeout, committed or rolled back', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    // One connection, so every query below meets the one the batches used.
    const single = createDataSource(process.env.DATABASE_URL!, { poolSize: 1, applicationName: 'uptime-test' });
    await single.initialize();
    try {
      const session = async () => {
        const [{ statement_timeout: timeout }] = await single.query('SHOW statement_timeout');
        // Outside a transaction each statement has its own: now() is this statement's start.
        const [{ outside }] = await single.query('SELECT now() = statement_timestamp() AS outside');
        return { timeout: timeout as string, outside: outside as boolean };
      };
      const before = await session();
      expect(before).toEqual({ timeout: '0', outside: true });
      await recordCheckBatch(single, [outcome(m.id, 0, true)], { statementTimeoutMs: 300 });
      expect(await session()).toEqual(before);
      const late = new Error('writing results made no progress for 300 ms');
      await expect(recordCheckBatch(single, [outcome(m.id, 30, false)], { statementTimeoutMs: 300, watch: { signal: AbortSignal.abort(late), progress: () => undefined } })).rejects.toBe(late);
      expect(await session()).toEqual(before);
      const [{ count }] = await single.query('SELECT count(*)::int AS count FROM check_results WHERE monitor_id = $1', [m.id]);
      expect(count).toBe(1);
    } finally {
      await single.destroy();
    }
  });

  it('decides each transition once when two workers record the same checks concurrently', async () => {
    const m = await aMonitor(db.ds, await aUser(db.ds));
    const batch = [outcome(m.id, 0, false)];
    const [a, b] = await Promise.all([recordCheckBatch(db.ds, batch), recordCheckBatch(db.ds, batch)]);
    expect(a.length + b.length).toBe(1);
    const [{ count }] = await db.ds.query('SELECT count(*)::int AS count FROM incidents');
    expect(count).toBe(1);
  });
});
