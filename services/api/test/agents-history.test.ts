import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { useApiHarness } from './support/api-harness';

const h = useApiHarness();

/** A check_results row as the worker writes it, with its per-location rows when given. */
async function aCheck(
  monitorId: number,
  at: string,
  ok: boolean,
  locations: [string, number | null, boolean | null, number | null, string | null][] = [],
): Promise<number> {
  const [{ id }] = await h.ds.query(
    `INSERT INTO check_results (monitor_id, scheduled_at, ok, status_code, response_time, error) VALUES ($1, $2, $3, $4, 40, $5) RETURNING id`,
    [monitorId, at, ok, ok ? 200 : 503, ok ? null : 'Down in 2 of 3 locations: eu: x; us: y'],
  );
  for (const [location, agentId, locOk, statusCode, error] of locations) {
    await h.ds.query(
      `INSERT INTO check_location_results (check_result_id, location, agent_id, ok, status_code, response_time, error, checked_at, latency_ms) VALUES ($1, $2, $3, $4, $5, CASE WHEN $4::bool IS NULL THEN NULL ELSE 40 END, $6, $7, 12)`,
      [id, location, agentId, locOk, statusCode, error, at],
    );
  }
  return Number(id);
}

describe('locations in history and results', () => {
  it('shows each location of a multi-location check, and none for a plain one', async () => {
    const { user, auth } = await aCaller(h.ds);
    const monitor = await aMonitor(h.ds, user);
    const plain = await aCheck(monitor.id, '2026-11-22T10:00:00.000Z', true);
    const multi = await aCheck(monitor.id, '2026-11-22T10:01:00.000Z', true, [
      ['local', null, true, 200, null],
      ['eu-west', 4, false, 503, 'Expected status 2xx, got 503'],
      ['us-east', 5, null, null, 'agent unreachable: connection refused'],
    ]);

    for (const path of [`/monitors/${monitor.id}/history`, `/monitors/${monitor.id}/results`]) {
      const res = await request(h.app).get(`/api/v1${path}`).set('Authorization', auth);
      expect(res.status).toBe(200);
      expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([multi, plain]);
      expect(res.body.data[0]).toMatchObject({ id: multi, status: 'up', location: null });
      expect(res.body.data[0].locations).toEqual([
        { location: 'local', status: 'up', status_code: 200, response_time: 40, error: null },
        { location: 'eu-west', status: 'down', status_code: 503, response_time: 40, error: 'Expected status 2xx, got 503' },
        { location: 'us-east', status: 'error', status_code: null, response_time: null, error: 'agent unreachable: connection refused' },
      ]);
      expect(res.body.data[1]).toMatchObject({ id: plain, location: null, locations: [] });
    }
  });
});
