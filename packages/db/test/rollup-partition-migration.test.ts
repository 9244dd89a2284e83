import type { DataSource } from 'typeorm';
import { aMigrationDatabase, aMonitor, aUser } from '@uptime/testing';
import { MIGRATIONS } from '@uptime/db';

/**
 * Migration 1796520620000 (partitioned rollups) on a database holding rows at every level: each
 * row kept, in the partition of its period; the writers' ON CONFLICT upserts still merge; a row
 * of a period without a partition lands in the default one; then back down and up again. Run on
 * a database of its own, so the shared test database is left alone.
 */
describe('migration 1796520620000 (partitioned rollups)', () => {
  const db = aMigrationDatabase('rollup_partition_migration');
  const index = MIGRATIONS.findIndex((m) => m.name === 'PartitionRollups1796520620000');
  let ds: DataSource;
  const migrateUpTo = async (count?: number): Promise<void> => {
    await db.migrateUpTo(count);
    ds = db.ds();
  };
  afterAll(() => db.drop());

  const OLD_5M = '2020-02-29T23:55:00.000Z';
  const OLD_1H = '2020-02-29T23:00:00.000Z';
  const OLD_AGENT = '2020-03-01T00:00:00.000Z';
  const LEVELS = ['check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d'] as const;

  const addRollup = (table: string, monitorId: number, bucket: Date | string, checks: number): Promise<unknown> =>
    ds.query(
      `INSERT INTO ${table} AS t (monitor_id, bucket, checks, successes, rt_count, rt_sum, rt_min, rt_max, rt_hist)
       VALUES ($1, $2, $3, $3, 1, 100, 100, 100, '{1,0}')
       ON CONFLICT (monitor_id, bucket) DO UPDATE SET checks = t.checks + EXCLUDED.checks, successes = t.successes + EXCLUDED.successes,
         rt_hist = int_array_add(t.rt_hist, EXCLUDED.rt_hist)`,
      [monitorId, bucket, checks],
    );
  const addAgentRollup = (agentId: number, bucket: Date | string, checks: number): Promise<unknown> =>
    ds.query(
      `INSERT INTO agent_check_rollups_1h AS t (agent_id, bucket, checks, errors, failures, latency_count, latency_sum, latency_hist)
       VALUES ($1, $2, $3, 0, 0, 0, 0, '{}')
       ON CONFLICT (agent_id, bucket) DO UPDATE SET checks = t.checks + EXCLUDED.checks`,
      [agentId, bucket, checks],
    );

  /** Every rollup row and the table (or partition) holding it. */
  const rows = async (): Promise<{ level: string; part: string; bucket: string; checks: number; hist: number[] }[]> =>
    ds.query(
      `SELECT level, part, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS bucket, checks, hist FROM (
         SELECT '5m' AS level, tableoid::regclass::text AS part, bucket, checks, rt_hist AS hist FROM check_rollups_5m
         UNION ALL SELECT '1h', tableoid::regclass::text, bucket, checks, rt_hist FROM check_rollups_1h
         UNION ALL SELECT '1d', tableoid::regclass::text, bucket, checks, rt_hist FROM check_rollups_1d
         UNION ALL SELECT 'agent', tableoid::regclass::text, bucket, checks, latency_hist FROM agent_check_rollups_1h) r
       ORDER BY level, bucket`,
    );
  const kinds = async (): Promise<Record<string, string>> => {
    const found: { name: string; kind: string }[] = await ds.query(
      `SELECT relname AS name, relkind::text AS kind FROM pg_class WHERE relname IN ('check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d', 'agent_check_rollups_1h')`,
    );
    return Object.fromEntries(found.map((r) => [r.name, r.kind]));
  };
  /** The indexes of the four tables themselves (a partition's own are not listed). */
  const indexes = async (): Promise<string[]> =>
    (
      await ds.query(
        `SELECT indexname FROM pg_indexes WHERE tablename IN ('check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d', 'agent_check_rollups_1h') ORDER BY 1`,
      )
    ).map((r: { indexname: string }) => r.indexname);

  it('moves every rollup into the partition of its period, keeps the upserts merging, and goes back down', async () => {
    expect(index).toBeGreaterThan(0);
    await migrateUpTo(index);
    const m = await aMonitor(ds, await aUser(ds));
    const now = new Date();
    const hourNow = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    for (const table of LEVELS) await addRollup(table, m.id, OLD_1H, 2);
    await addRollup('check_rollups_5m', m.id, OLD_5M, 3);
    await addRollup('check_rollups_5m', m.id, hourNow, 4);
    await addRollup('check_rollups_1h', m.id, hourNow, 5);
    await addAgentRollup(7, OLD_AGENT, 6);
    await addAgentRollup(7, hourNow, 1);
    const before = await rows();
    expect(before).toHaveLength(8);
    const indexesBefore = await indexes();
    expect(indexesBefore).toEqual([
      'agent_check_rollups_1h_pkey',
      'check_rollups_1d_bucket_idx',
      'check_rollups_1d_pkey',
      'check_rollups_1h_bucket_idx',
      'check_rollups_1h_pkey',
      'check_rollups_5m_bucket_idx',
      'check_rollups_5m_pkey',
    ]);

    await migrateUpTo();
    expect(await kinds()).toEqual({ check_rollups_5m: 'p', check_rollups_1h: 'p', agent_check_rollups_1h: 'p', check_rollups_1d: 'r' });
    const day = now.toISOString().slice(0, 10).replace(/-/g, '');
    const month = day.slice(0, 6);
    const after = await rows();
    expect(after.map(({ part: _part, ...rest }) => rest)).toEqual(before.map(({ part: _part, ...rest }) => rest));
    expect(after.map((r) => r.part)).toEqual([
      'check_rollups_1d',
      'check_rollups_1h_p202002',
      `check_rollups_1h_p${month}`,
      'check_rollups_5m_p20200229',
      'check_rollups_5m_p20200229',
      `check_rollups_5m_p${day}`,
      'agent_check_rollups_1h_p202003',
      `agent_check_rollups_1h_p${month}`,
    ]);
    // Created ahead by the migration itself, so writes before the first maintenance round find their day.
    const ahead = new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    expect((await ds.query(`SELECT to_regclass($1)::text AS t`, [`check_rollups_5m_p${ahead}`]))[0].t).toBe(`check_rollups_5m_p${ahead}`);
    expect(await indexes()).toEqual(indexesBefore);

    // The writers' upserts merge into the moved rows.
    await addRollup('check_rollups_5m', m.id, OLD_5M, 10);
    await addRollup('check_rollups_1h', m.id, hourNow, 10);
    await addAgentRollup(7, OLD_AGENT, 10);
    const merged = await rows();
    expect(merged.find((r) => r.level === '5m' && r.bucket === OLD_5M.slice(0, 16))).toMatchObject({ checks: 13, hist: [2, 0] });
    expect(merged.find((r) => r.level === '1h' && r.part === `check_rollups_1h_p${month}`)).toMatchObject({ checks: 15, hist: [2, 0] });
    expect(merged.find((r) => r.level === 'agent' && r.part === 'agent_check_rollups_1h_p202003')?.checks).toBe(16);
    expect(merged).toHaveLength(8);
    // A period without a partition: the default one keeps the row, and merges the next.
    await addRollup('check_rollups_5m', m.id, '2040-01-01T00:00:00Z', 1);
    await addRollup('check_rollups_5m', m.id, '2040-01-01T00:00:00Z', 1);
    await addAgentRollup(7, '2040-01-01T00:00:00Z', 1);
    const far = (await rows()).filter((r) => r.bucket.startsWith('2040'));
    expect(far.map((r) => [r.part, r.checks])).toEqual([
      ['check_rollups_5m_default', 2],
      ['agent_check_rollups_1h_default', 1],
    ]);

    await ds.undoLastMigration({ transaction: 'each' });
    expect(await kinds()).toEqual({ check_rollups_5m: 'r', check_rollups_1h: 'r', agent_check_rollups_1h: 'r', check_rollups_1d: 'r' });
    const down = await rows();
    expect(down).toHaveLength(10);
    expect(new Set(down.map((r) => r.part))).toEqual(new Set(['check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d', 'agent_check_rollups_1h']));
    expect(await indexes()).toEqual(indexesBefore);
    await addRollup('check_rollups_5m', m.id, OLD_5M, 1);
    expect((await rows()).find((r) => r.level === '5m' && r.bucket === OLD_5M.slice(0, 16))?.checks).toBe(14);

    // And up again; deleting the monitor still takes its rollups with it (the foreign key came along).
    await migrateUpTo();
    expect((await kinds()).check_rollups_5m).toBe('p');
    expect(await rows()).toHaveLength(10);
    await ds.query(`DELETE FROM monitors WHERE id = $1`, [m.id]);
    expect((await rows()).map((r) => r.level)).toEqual(['agent', 'agent', 'agent']);
  });
});
