import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();
const MINUTE = 60_000;

/** Unchecked time ("no data") in a monitor's history and statistics (docs/statistics.md). */
describe('no-data spans', () => {
  const get = (path: string, auth: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', auth);

  async function monitorWithSpans(lastCheckAgoMs: number) {
    const { user, auth } = await aCaller(h.ds);
    const now = Date.now();
    const monitor = await aMonitor(h.ds, user, { checkInterval: 60, status: 'online', lastCheck: new Date(now - lastCheckAgoMs) });
    // aMonitor saved it just now; the worker rule ignores a monitor changed since its last check.
    await h.ds.query(`UPDATE monitors SET updated_at = $2 WHERE id = $1`, [monitor.id, new Date(now - 48 * 60 * MINUTE)]);
    await h.ds.query(
      `INSERT INTO no_data_spans (monitor_id, started_at, ended_at) VALUES ($1, $2, $3), ($1, $4, $5)`,
      [monitor.id, new Date(now - 180 * MINUTE), new Date(now - 170 * MINUTE), new Date(now - 30 * 60 * MINUTE), new Date(now - 29 * 60 * MINUTE)],
    );
    return { monitor, auth, now };
  }

  it('lists the recorded spans beside the checks of the history range, newest first', async () => {
    const { monitor, auth, now } = await monitorWithSpans(MINUTE);
    const res = await get(`/monitors/${monitor.id}/history`, auth);
    expect(res.status).toBe(200);
    expect(res.body.no_data).toEqual([
      { from: new Date(now - 180 * MINUTE).toISOString(), to: new Date(now - 170 * MINUTE).toISOString(), duration: 600 },
      { from: new Date(now - 30 * 60 * MINUTE).toISOString(), to: new Date(now - 29 * 60 * MINUTE).toISOString(), duration: 3600 },
    ]);
    const since = new Date(now - 5 * 60 * MINUTE).toISOString();
    const ranged = await get(`/monitors/${monitor.id}/history?from=${since}`, auth);
    expect(ranged.body.no_data).toHaveLength(1);
  });

  it('shows a span still going on when the monitor has not been checked for more than two intervals', async () => {
    const { monitor, auth, now } = await monitorWithSpans(10 * MINUTE);
    const res = await get(`/monitors/${monitor.id}/history`, auth);
    const [open] = res.body.no_data;
    expect(open).toMatchObject({ from: new Date(now - 9 * MINUTE).toISOString(), to: null });
    expect(open.duration).toBeGreaterThanOrEqual(540);
  });

  it('adds the unchecked seconds of the period to the statistics, leaving uptime to the checks', async () => {
    const { monitor, auth } = await monitorWithSpans(MINUTE);
    const day = await get(`/monitors/${monitor.id}/stats?period=24h`, auth);
    expect(day.status).toBe(200);
    expect(day.body.data.no_data).toEqual({ total_seconds: 600, spans: [expect.objectContaining({ duration: 600 })] });
    expect(day.body.data.uptime['24h']).toBeNull();
    const week = await get(`/monitors/${monitor.id}/stats?period=7d`, auth);
    expect(week.body.data.no_data.total_seconds).toBe(4200);
    expect(week.body.data.no_data.spans).toHaveLength(2);
  });

  it('shows nothing for a paused monitor', async () => {
    const { user, auth } = await aCaller(h.ds);
    const monitor = await aMonitor(h.ds, user, { checkInterval: 60, status: 'paused', lastCheck: new Date(Date.now() - 60 * MINUTE) });
    const res = await get(`/monitors/${monitor.id}/history`, auth);
    expect(res.body.no_data).toEqual([]);
  });
});
