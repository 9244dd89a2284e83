import { aMonitor, aUser } from '@uptime/testing';
import type { CheckOutcome } from '../src/check-outcome';
import { recordCheckBatch } from '../src/record-check-batch';
import { useBatchDatabase } from './support/batch-database';

const T0 = Date.parse('2026-11-28T10:00:00.000Z');

const ok = (monitorId: number, round: number): CheckOutcome => {
  const at = new Date(T0 + round * 30_000);
  return { monitorId, configVersion: 1, scheduledAt: at, result: { ok: true, statusCode: 200, responseTime: 100 + round, error: null, checkedAt: at, attempts: 1 } };
};

/**
 * Every result batch updates its monitors' rows. `monitors` leaves room on its pages
 * (migration 1732270160000) so that the new version of a row stays on its page, where Postgres
 * can keep it out of the table's eight indexes (a heap-only tuple): on full pages each update was
 * a new row elsewhere and an entry in every index, which the list then read past.
 */
describe('monitor rows under their checks', () => {
  const db = useBatchDatabase();

  it('stay on their pages through the updates of their checks', async () => {
    const owner = await aUser(db.ds);
    const monitors = [];
    for (let i = 0; i < 60; i += 1) monitors.push(await aMonitor(db.ds, owner, { name: `monitor ${i}`, url: `https://status.example-company.com/health/${i}` }));
    const pagesOf = async (): Promise<Map<number, string>> =>
      new Map(
        ((await db.ds.query(`SELECT id, (ctid::text::point)[0]::text AS page FROM monitors`)) as { id: number; page: string }[]).map((r) => [r.id, r.page]),
      );
    const before = await pagesOf();
    expect(new Set(before.values()).size).toBeGreaterThanOrEqual(2);

    // As in production, where a batch holds ~50 of thousands of monitors, a batch takes one
    // row of a page: the rows a transaction replaces stay live until it commits.
    for (let round = 0; round < 4; round += 1) {
      for (let k = 0; k < 15; k += 1) await recordCheckBatch(db.ds, monitors.filter((_, i) => i % 15 === k).map((m) => ok(m.id, round)));
    }

    const after = await pagesOf();
    const moved = monitors.filter((m) => after.get(m.id) !== before.get(m.id));
    expect(moved.map((m) => [m.id, before.get(m.id), after.get(m.id)])).toEqual([]);
    const [options] = (await db.ds.query(`SELECT reloptions FROM pg_class WHERE relname = 'monitors'`)) as { reloptions: string[] }[];
    expect(options?.reloptions).toContain('fillfactor=50');
  });
});
