import request from 'supertest';
import { aCaller, aMonitor } from '@uptime/testing';
import { RECENT_CHECKS_SQL } from '../src/check-results/recent-checks.repository';
import { expectMeta, useApiHarness } from './support/api-harness';

const h = useApiHarness();
const SECOND = 1000;

/** GET /monitors/recent-checks: the beads of the list and the dashboard (docs/web.md, "Beads"). */
describe('GET /monitors/recent-checks', () => {
  const get = (query: string, auth: string) => request(h.app).get(`/api/v1/monitors/recent-checks${query}`).set('Authorization', auth);

  /** `n` checks 30 s apart ending now − 30 s; every third failed, the last one in maintenance. */
  async function insertChecks(monitorId: number, n: number, now: number): Promise<void> {
    for (let k = 1; k <= n; k += 1) {
      await h.ds.query(
        `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, status_code, response_time, error, maintenance)
         VALUES ($1, $2, 250, $3, $4, $5, $6, $7)`,
        [monitorId, new Date(now - k * 30 * SECOND), k % 3 !== 0, k % 3 !== 0 ? 200 : 500, 100 + k, k % 3 !== 0 ? null : 'Unexpected status 500', k === 1],
      );
    }
  }

  it("answers each monitor's latest checks, newest first, bounded by limit, in id order", async () => {
    const { user, auth } = await aCaller(h.ds);
    const now = Date.now();
    const a = await aMonitor(h.ds, user, { checkInterval: 30 });
    const b = await aMonitor(h.ds, user, { checkInterval: 30 });
    const fresh = await aMonitor(h.ds, user, { checkInterval: 30 });
    await insertChecks(a.id, 40, now);
    await insertChecks(b.id, 3, now);

    const res = await get(`?ids=${fresh.id},${b.id},${a.id},${a.id}`, auth);
    expect(res.status).toBe(200);
    expectMeta(res);
    expect(res.body.data.map((m: { monitor_id: number }) => m.monitor_id)).toEqual([a.id, b.id, fresh.id].sort((x, y) => x - y));
    const byId = new Map<number, { checks: Record<string, unknown>[] }>(res.body.data.map((m: { monitor_id: number }) => [m.monitor_id, m]));
    // Default 30 of a's 40, newest first.
    const aChecks = byId.get(a.id)!.checks;
    expect(aChecks).toHaveLength(30);
    expect(aChecks[0]).toEqual({
      checked_at: new Date(now - 30 * SECOND + 250).toISOString(),
      status: 'up',
      status_code: 200,
      response_time: 101,
      error: null,
      maintenance: true,
      packet_loss: null,
      dns_answers: null,
    });
    expect(aChecks[2]).toMatchObject({ status: 'down', status_code: 500, error: 'Unexpected status 500', maintenance: false });
    expect(aChecks[29]!.checked_at).toBe(new Date(now - 30 * 30 * SECOND + 250).toISOString());
    expect(byId.get(b.id)!.checks).toHaveLength(3);
    expect(byId.get(fresh.id)!.checks).toEqual([]);

    const limited = await get(`?ids=${a.id}&limit=50`, auth);
    expect(limited.body.data[0].checks).toHaveLength(40);
    const five = await get(`?ids=${a.id}&limit=5`, auth);
    expect(five.body.data[0].checks.map((c: { response_time: number }) => c.response_time)).toEqual([101, 102, 103, 104, 105]);
  });

  it("carries a ping check's packet loss and a dns check's first three answer values: the list's figure of their type", async () => {
    const { user, auth } = await aCaller(h.ds);
    const ping = await aMonitor(h.ds, user, { type: 'ping', url: 'ping://router.example.test', checkInterval: 30 });
    const dns = await aMonitor(h.ds, user, { type: 'dns', url: 'dns://shop.example.test', checkInterval: 30 });
    const at = new Date(Date.now() - 30 * SECOND);
    await h.ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, response_time, packet_loss, rtt_min_ms, rtt_avg_ms, rtt_max_ms)
       VALUES ($1, $2, 0, true, 2, 25, 1, 2, 3)`,
      [ping.id, at],
    );
    await h.ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, start_lag_ms, ok, response_time, dns_response_code, dns_answers, dns_min_ttl)
       VALUES ($1, $2, 0, true, 4, 'NOERROR', ARRAY['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4'], 60)`,
      [dns.id, at],
    );
    const res = await get(`?ids=${ping.id},${dns.id}`, auth);
    const byId = new Map<number, { checks: Record<string, unknown>[] }>(res.body.data.map((m: { monitor_id: number }) => [m.monitor_id, m]));
    expect(byId.get(ping.id)!.checks[0]).toMatchObject({ packet_loss: 25, dns_answers: null });
    expect(byId.get(dns.id)!.checks[0]).toMatchObject({ packet_loss: null, dns_answers: ['192.0.2.1', '192.0.2.2', '192.0.2.3'] });
  });

  it("leaves out another organization's monitors, as missing ones", async () => {
    const { user, auth } = await aCaller(h.ds);
    const other = await aCaller(h.ds);
    const mine = await aMonitor(h.ds, user, { checkInterval: 30 });
    const theirs = await aMonitor(h.ds, other.user, { checkInterval: 30 });
    await insertChecks(theirs.id, 2, Date.now());
    const res = await get(`?ids=${mine.id},${theirs.id},2147483647`, auth);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ monitor_id: mine.id, checks: [] }]);
  });

  it.each([
    ['', 'ids'],
    ['?ids=', 'ids'],
    ['?ids=1,x', 'ids'],
    ['?ids=0', 'ids'],
    ['?ids=1,,2', 'ids'],
    ['?ids=99999999999', 'ids'],
    [`?ids=${Array.from({ length: 101 }, (_v, i) => i + 1).join(',')}`, 'ids'],
    ['?ids=1&limit=0', 'limit'],
    ['?ids=1&limit=51', 'limit'],
    ['?ids=1&limit=ten', 'limit'],
  ])('refuses %s with 400 VALIDATION_ERROR on %s', async (query, field) => {
    const { auth } = await aCaller(h.ds);
    const res = await get(query, auth);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
  });

  it('reads each monitor through the results key, never scanning the table', async () => {
    const { user } = await aCaller(h.ds);
    const m = await aMonitor(h.ds, user, { checkInterval: 30 });
    await insertChecks(m.id, 5, Date.now());
    const [{ organization_id: organizationId }]: { organization_id: number }[] = await h.ds.query('SELECT organization_id FROM monitors WHERE id = $1', [m.id]);
    const plan: { 'QUERY PLAN': string }[] = await h.ds.query(`EXPLAIN ${RECENT_CHECKS_SQL}`, [organizationId, [m.id], 30]);
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    // Per monitor, a lookup by its key in each partition (a plain or bitmap index scan, as the
    // planner prefers for the table's size), never a scan of a whole partition.
    expect(text).toMatch(/Nested Loop Left Join/);
    expect(text).toMatch(/Index Cond: \(monitor_id = m\.id\)/);
    expect(text).not.toMatch(/Seq Scan on check_results/);
  });
});
