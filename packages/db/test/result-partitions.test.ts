import { aMonitor, aUser, openTestDatabase, resetDatabase } from '@uptime/testing';
import {
  compactResultPartitions,
  dropResultPartitionsBefore,
  ensureResultPartitions,
  listResultPartitions,
  resultPartitionName,
  resultStorage,
  type DataSource,
} from '@uptime/db';

let ds: DataSource;
beforeAll(async () => {
  ds = await openTestDatabase();
});
afterAll(() => ds.destroy());
beforeEach(() => resetDatabase(ds));

const at = (iso: string): Date => new Date(iso);
const partitionOf = async (monitorId: number, scheduledAt: Date): Promise<string> =>
  (await ds.query(`SELECT tableoid::regclass::text AS t FROM check_results WHERE monitor_id = $1 AND scheduled_at = $2`, [monitorId, scheduledAt]))[0].t;
const insert = (monitorId: number, scheduledAt: Date): Promise<unknown> =>
  ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, $2, true)`, [monitorId, scheduledAt]);

describe('daily partitions of raw results', () => {
  it('are created by UTC day under a fixed name, once, and receive their day’s results', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    expect(resultPartitionName(at('2031-05-04T23:59:59.999Z'))).toBe('check_results_p20310504');
    expect(await ensureResultPartitions(ds, at('2031-05-04T23:00:00Z'), at('2031-05-06T01:00:00Z'))).toEqual({
      created: ['check_results_p20310504', 'check_results_p20310505', 'check_results_p20310506'],
      skipped: [],
    });
    expect(await ensureResultPartitions(ds, at('2031-05-04T00:00:00Z'), at('2031-05-06T00:00:00Z'))).toEqual({ created: [], skipped: [] });
    await insert(m.id, at('2031-05-05T00:00:00Z'));
    await insert(m.id, at('2031-05-05T23:59:59.999Z'));
    await insert(m.id, at('2031-05-07T12:00:00Z'));
    expect(await partitionOf(m.id, at('2031-05-05T00:00:00Z'))).toBe('check_results_p20310505');
    expect(await partitionOf(m.id, at('2031-05-05T23:59:59.999Z'))).toBe('check_results_p20310505');
    // No partition for that day yet: the default partition keeps the result rather than refusing it.
    expect(await partitionOf(m.id, at('2031-05-07T12:00:00Z'))).toBe('check_results_default');
    // Redelivery is still a no-op across partitions: the key includes the partitioning column.
    await ds.query(`INSERT INTO check_results (monitor_id, scheduled_at, ok) VALUES ($1, $2, false) ON CONFLICT (monitor_id, scheduled_at) DO NOTHING`, [
      m.id,
      at('2031-05-05T00:00:00Z'),
    ]);
    expect((await ds.query(`SELECT ok FROM check_results WHERE scheduled_at = $1`, [at('2031-05-05T00:00:00Z')]))[0].ok).toBe(true);
  });

  it('leave a day whose results already sit in the default partition there, readable', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    await insert(m.id, at('2032-01-02T08:00:00Z'));
    expect(await ensureResultPartitions(ds, at('2032-01-01T00:00:00Z'), at('2032-01-03T00:00:00Z'))).toEqual({
      created: ['check_results_p20320101', 'check_results_p20320103'],
      skipped: ['check_results_p20320102'],
    });
    expect(await partitionOf(m.id, at('2032-01-02T08:00:00Z'))).toBe('check_results_default');
    await insert(m.id, at('2032-01-02T09:00:00Z'));
    expect(await partitionOf(m.id, at('2032-01-02T09:00:00Z'))).toBe('check_results_default');
  });

  it('have the key index of a closed day rebuilt packed, once, leaving open days alone', async () => {
    const user = await aUser(ds);
    const monitors: { id: number }[] = await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval)
       SELECT $1, 'm' || i, 'https://example.test/' || i, 30, 60 FROM generate_series(1, 1000) AS i RETURNING id`,
      [user.id],
    );
    await ensureResultPartitions(ds, at('2033-02-01T00:00:00Z'), at('2033-02-02T00:00:00Z'));
    // Checks of many monitors arrive interleaved, as they do in production: the index's pages split half-full.
    await ds.query(
      `INSERT INTO check_results (monitor_id, scheduled_at, ok)
       SELECT m, timestamptz '2033-02-01' + s * interval '60 seconds', true
         FROM unnest($1::int[]) AS m, generate_series(0, 59) AS s ORDER BY s, m`,
      [monitors.map((m) => m.id)],
    );
    const keyIndex = (await listResultPartitions(ds)).find((p) => p.name === 'check_results_p20330201')!.keyIndex;
    const indexBytes = async (): Promise<number> => Number((await ds.query(`SELECT pg_relation_size($1::regclass) AS b`, [keyIndex]))[0].b);
    const before = await indexBytes();
    const storageBefore = await resultStorage(ds);

    // 2033-02-02 is not over at that moment: only 2033-02-01 is compacted.
    const compacted = await compactResultPartitions(ds, at('2033-02-02T12:00:00Z'));
    expect(compacted).toContain('check_results_p20330201');
    expect(compacted).not.toContain('check_results_p20330202');
    expect(await indexBytes()).toBeLessThan(before * 0.8);
    const storageAfter = await resultStorage(ds);
    expect(storageAfter.results).toBe(storageBefore.results);
    expect(storageAfter.bytes).toBeLessThan(storageBefore.bytes);
    expect(await compactResultPartitions(ds, at('2033-02-02T12:00:00Z'))).toEqual([]);
    // The rebuilt index still enforces the key.
    await expect(insert(monitors[0]!.id, at('2033-02-01T00:00:00Z'))).rejects.toThrow(/duplicate key/);
  });

  it('lose the index an interrupted rebuild left behind when they are compacted', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    await ensureResultPartitions(ds, at('2001-03-01T00:00:00Z'), at('2001-03-01T00:00:00Z'));
    await insert(m.id, at('2001-03-01T01:00:00Z'));
    await insert(m.id, at('2001-03-01T02:00:00Z'));
    // A concurrent build that fails half-way leaves an invalid index, as a cancelled REINDEX does.
    await expect(ds.query(`CREATE UNIQUE INDEX CONCURRENTLY check_results_p20010301_ccnew ON check_results_p20010301 (ok)`)).rejects.toThrow(/could not create unique index/);
    const invalid = async (): Promise<string[]> =>
      (
        await ds.query(
          `SELECT i.relname AS name FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = 'check_results_p20010301'::regclass AND NOT x.indisvalid`,
        )
      ).map((r: { name: string }) => r.name);
    expect(await invalid()).toEqual(['check_results_p20010301_ccnew']);
    expect(await compactResultPartitions(ds, at('2001-03-02T01:00:00Z'))).toContain('check_results_p20010301');
    expect(await invalid()).toEqual([]);
    expect((await dropResultPartitionsBefore(ds, at('2001-03-02T00:00:00Z'))).dropped).toEqual(['check_results_p20010301']);
  });

  it('are dropped whole once their day is before the cutoff', async () => {
    const m = await aMonitor(ds, await aUser(ds));
    await ensureResultPartitions(ds, at('2001-06-01T00:00:00Z'), at('2001-06-03T00:00:00Z'));
    for (const iso of ['2001-06-01T10:00:00Z', '2001-06-02T10:00:00Z', '2001-06-03T10:00:00Z']) await insert(m.id, at(iso));
    expect(await dropResultPartitionsBefore(ds, at('2001-06-03T00:00:00Z'))).toEqual({
      dropped: ['check_results_p20010601', 'check_results_p20010602'],
      busy: [],
    });
    const left: { scheduled_at: Date }[] = await ds.query(`SELECT scheduled_at FROM check_results WHERE monitor_id = $1`, [m.id]);
    expect(left.map((r) => r.scheduled_at.toISOString())).toEqual(['2001-06-03T10:00:00.000Z']);
    // Leave no partition behind for the other test files sharing this database.
    expect((await dropResultPartitionsBefore(ds, at('2001-06-04T00:00:00Z'))).dropped).toEqual(['check_results_p20010603']);
  });
});
