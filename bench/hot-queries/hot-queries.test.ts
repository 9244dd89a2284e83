import { periodStart, resultPartitionName, ROLLUP_PARTITIONING, timePartitionName, utcDayStart } from '@uptime/db';
import { runHotQueryHarness, type HarnessResult, type StatementReport } from './harness';
import { historyRange } from './hot-paths';
import { seqScansOf } from './report';
import { seedSizeFor } from './seed';

/**
 * Every hot statement, run by the product's own functions on a production-shaped data set and
 * explained where it runs (bench/hot-queries/). 3,000 monitors keep the suite fast; the seed
 * keeps what the planner weighs in production proportions (a batch is 0.8 % of the monitors,
 * the live rollup buckets a small slice of their tables), so the plans asserted here are the
 * ones `pnpm bench:explain` shows at 30,000. No timings: only which relations and indexes each
 * statement reads, and how.
 */
const MONITORS = 3000;

// Tables whose size grows with the install: a sequential scan of one is a regression unless the
// statement reads (nearly) all of it by design (WHOLE_TABLE_READS). Plans name `alerts`, never the
// views `incidents` and `alert_episodes` over it (packages/db/src/migrations/1732270170000-one-alert-table.ts).
const HOT_TABLE = /^(monitors|check_results(_p\d{8}|_default)?|check_rollups_(5m|1h|1d)(_p\d{6}|_p\d{8}|_default)?|alerts|api_tokens|status_events)$/;
// A partition of check_results or of a rollup table (packages/db/src/time-partitions.ts): a day, a month or the default.
const PARTITION_SUFFIX = /_(p\d{6}|p\d{8}|default)$/;
const ROLLUPS = ['check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d'] as const;
/** The table a rollup partition belongs to, and the parent's name of a partition's index: what the plans below are about. */
const parentOf = (relation: string): string => relation.replace(PARTITION_SUFFIX, '');
const parentIndexOf = (index: string): string => index.replace(/_(p\d{6}|p\d{8}|default)_(pkey|bucket_idx)$/, '_$2');

/** Statements that read every row of the big user (99.8 % of monitors), where a scan is the plan. */
const WHOLE_TABLE_READS: { path: RegExp; sql: RegExp }[] = [
  // The dashboard counts every monitor of its organization by status.
  { path: /^api\.dashboard(\.warm)?$/, sql: /^SELECT id, status, open_incident_id, type = 'heartbeat' AS is_heartbeat FROM monitors WHERE organization_id = \$1$/ },
  // The reconciler compares every active probed monitor with Redis (heartbeats have no schedule).
  {
    path: /^reconciler$/,
    sql: /^SELECT id, config_version \|\| ':' \|\| check_interval AS version FROM monitors WHERE status <> 'paused' AND type = ANY\(\$1\)$/,
  },
];

describe(`hot queries at ${MONITORS} monitors, explained where the product runs them`, () => {
  let r: HarnessResult;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_explain`;
    r = await runHotQueryHarness({
      databaseUrl: url.toString(),
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      prefix: `${process.env.QUEUE_PREFIX}_explain`,
      size: seedSizeFor(MONITORS),
    });
  }, 120_000);

  const statementsOf = (path: string): StatementReport[] => r.statements.filter((s) => s.path === path);
  const statement = (path: string, sql: RegExp): StatementReport => {
    const found = statementsOf(path).filter((s) => sql.test(s.sql));
    if (found.length !== 1)
      throw new Error(
        `${path}: ${found.length} statements match ${sql}: ${statementsOf(path)
          .map((s) => s.sql.slice(0, 80))
          .join(' | ')}`,
      );
    return found[0]!;
  };
  const indexes = (s: StatementReport): string[] => [...new Set(s.nodes.flatMap((n) => (n.index ? [n.index] : [])))].sort();
  const types = (s: StatementReport): string[] => s.nodes.map((n) => n.type);
  const relationsScanned = (s: StatementReport): string[] => [...new Set(s.nodes.flatMap((n) => (n.relation ? [n.relation] : [])))].sort();
  const holdsRows = (relation: string): boolean => (r.partitionRows[relation] ?? 0) > 0;
  // The indexes a statement reads, leaving out those of empty partitions (the days or months
  // ahead, the default), which cost nothing whatever the planner reads them by.
  const indexesOnRows = (s: StatementReport): string[] =>
    [...new Set(s.nodes.flatMap((n) => (n.index && !(n.relation && PARTITION_SUFFIX.test(n.relation) && !holdsRows(n.relation)) ? [n.index] : [])))].sort();
  const keyIndexOf = (partition: string): string =>
    r.partitions.find((p) => p.name === partition)?.keyIndex ?? `${partition}_monitor_id_scheduled_at_idx`;

  it('runs every hot path and explains every statement', () => {
    expect(r.paths.filter((p) => p.error).map((p) => p.name)).toEqual([]);
    const unexplained = r.statements.filter((s) => s.figures === null).map((s) => `${s.path}: ${s.sql.slice(0, 45)}`);
    expect(unexplained).toEqual([]);
    expect(r.paths.map((p) => p.name)).toEqual([
      'auth.token',
      'worker.batch',
      'worker.publish',
      'worker.sweep',
      'api.list',
      'api.list.deep',
      'api.list.small',
      'api.list.filtered',
      'api.get',
      'api.history',
      'api.history.range',
      'api.results',
      'api.stats.24h',
      'api.stats.90d',
      'api.dashboard',
      'api.dashboard.warm',
      'api.dashboard.small',
      'reconciler',
    ]);
  });

  it('never scans a hot table sequentially where an index applies', () => {
    const violations = r.statements.flatMap((s) => {
      if (WHOLE_TABLE_READS.some((w) => w.path.test(s.path) && w.sql.test(s.sql))) return [];
      // Empty partitions (the days ahead, the default) cost nothing to scan and are planned so.
      const seq = seqScansOf(s).filter((rel) => HOT_TABLE.test(rel) && !(PARTITION_SUFFIX.test(rel) && !holdsRows(rel)));
      return seq.map((rel) => `${s.path}: Seq Scan on ${rel} in ${s.sql.slice(0, 90)}`);
    });
    expect(violations).toEqual([]);
    // The whole-organization reads are what their exemption says: one scan of monitors, nothing else.
    for (const w of WHOLE_TABLE_READS) {
      for (const s of r.statements.filter((x) => w.path.test(x.path) && w.sql.test(x.sql))) expect(seqScansOf(s)).toEqual(['monitors']);
    }
  });

  it('looks up a bearer token by its hash index, its user and membership by primary key, and marks it used by primary key', () => {
    const lookup = statement('auth.token', /FROM api_tokens t JOIN users u .* WHERE t\.token_hash = \$1$/);
    expect(types(lookup)).toEqual(['Nested Loop', 'Nested Loop', 'Index Scan', 'Index Scan', 'Index Scan']);
    expect([...indexes(lookup)].sort()).toEqual(['api_tokens_token_hash_key', 'organization_members_user_idx', 'users_pkey']);
    const touch = statement('auth.token', /^UPDATE api_tokens SET last_used_at/);
    expect(indexes(touch)).toEqual(['api_tokens_pkey']);
  });

  it("locks the batch's monitors by primary key in id order, without a sort", () => {
    const lock = statement('worker.batch', /FROM monitors WHERE id = ANY\(\$1\) ORDER BY id FOR NO KEY UPDATE$/);
    expect(types(lock)).toEqual(['LockRows', 'Index Scan']);
    expect(indexes(lock)).toEqual(['monitors_pkey']);
    expect(lock.figures!.rows).toBe(r.batch.length);
  });

  it("inserts the batch's results into the partition of their day only, arbitrated by its key index", () => {
    const insert = statement('worker.batch', /^WITH inserted AS \(\s*INSERT INTO check_results /);
    const days = [...new Set(r.batch.map((o) => resultPartitionName(utcDayStart(o.scheduledAt))))].sort();
    // The unnest of the batch's arrays, and the subplan that turns a dns check's answer (one jsonb
    // array per row, services/check-worker/src/check-batch.repository.ts) into its text[].
    expect(types(insert).slice(0, 5)).toEqual(['CTE Scan', 'Insert', 'Function Scan', 'ProjectSet', 'Result']);
    expect(insert.plan).toContain('ON CONFLICT NOTHING via check_results_monitor_time_key');
    // The statement's second part takes back the not-checked records of the inserted slots: none
    // here, and it reads no table but no_data_spans (by its monitor index once that is worth it).
    expect(insert.plan).toContain('CTE superseded: Delete on no_data_spans');
    const spans = insert.activity.filter((a) => a.relation.startsWith('no_data_spans'));
    expect(spans.map((a) => a.relation).every((rel) => ['no_data_spans', 'no_data_spans_monitor_end'].includes(rel))).toBe(true);
    expect(spans.reduce((n, a) => n + a.deleted, 0)).toBe(0);
    expect(insert.activity.filter((a) => a.inserted > 0)).toEqual(days.map((d) => expect.objectContaining({ relation: d, kind: 'table' })));
    expect(insert.activity.reduce((n, a) => n + a.inserted, 0)).toBe(r.batch.length);
    // Besides the conflict check on that day's key index, only the FK check of each row, by the monitors' primary key.
    expect(insert.activity.filter((a) => a.scans > 0 && !a.relation.startsWith('no_data_spans')).map((a) => a.relation)).toEqual([...days.map(keyIndexOf), 'monitors_pkey'].sort());
    expect(insert.activity.find((a) => a.relation === 'monitors_pkey')!.scans).toBe(r.batch.length);
  });

  it("updates the batch's monitors by primary key from the unnest", () => {
    const update = statement('worker.batch', /^UPDATE monitors m SET status = v\.status/);
    expect(types(update)).toEqual(['Update', 'Nested Loop', 'Function Scan', 'Index Scan']);
    expect(indexes(update)).toEqual(['monitors_pkey']);
    expect(update.activity.find((a) => a.relation === 'monitors')).toMatchObject({
      scans: 0,
      updated: new Set(r.batch.map((o) => o.monitorId)).size,
    });
  });

  it('upserts every rollup table in one statement, each through its primary key and nothing else', () => {
    const upsert = statement('worker.batch', /^WITH level_0 AS \(INSERT INTO check_rollups_5m AS t /);
    // An Insert fed by its unnest per table (the first two as WITH parts), no other node.
    expect([...types(upsert)].sort()).toEqual(['Function Scan', 'Function Scan', 'Function Scan', 'Insert', 'Insert', 'Insert']);
    for (const table of ROLLUPS) expect(upsert.plan).toContain(`ON CONFLICT UPDATE via ${table}_pkey`);
    // Every bucket of the batch exists already (the seed wrote the current ones): all updates, in
    // the partition of the batch's day (5-minute) or month (hourly), or the daily table.
    const written = (table: string): string => {
      const t = ROLLUP_PARTITIONING.find((p) => p.table === table);
      if (!t) return table;
      const periods = new Set(r.batch.map((o) => timePartitionName(t, periodStart(t.span, o.result.checkedAt))));
      expect(periods.size).toBe(1);
      return [...periods][0]!;
    };
    expect(upsert.activity).toEqual(
      [...ROLLUPS].sort().flatMap((table) => [
        expect.objectContaining({ relation: written(table), scans: 0, inserted: 0, updated: r.batch.length }),
        expect.objectContaining({ relation: `${written(table)}_pkey`, scans: r.batch.length }),
      ]),
    );
  });

  it('opens and closes incidents by primary key and writes the outbox without reading it', () => {
    const close = statement('worker.batch', /^UPDATE alerts SET resolved_at/);
    expect(indexes(close)).toEqual(['alerts_pkey']);
    const open = statement('worker.batch', /^WITH given AS \( SELECT \* FROM unnest\(\$1::int\[\], \$2::text\[\], \$3::timestamptz/);
    // The batch's downtimes in one statement fed by its unnest: alerts only written, never read
    // (no scan of any kind); the one index read is the foreign key's check of monitors.
    expect([...types(open)].filter((t) => /Scan$/.test(t) && !['Function Scan', 'CTE Scan', 'Subquery Scan'].includes(t))).toEqual([]);
    expect(open.activity.filter((a) => a.scans > 0).map((a) => a.relation)).toEqual(['monitors_pkey']);
    expect(open.activity).toContainEqual(expect.objectContaining({ relation: 'alerts', scans: 0, inserted: expect.any(Number) }));
    expect(open.activity.find((a) => a.relation === 'alerts')!.inserted).toBeGreaterThan(0);
    const outbox = statement('worker.batch', /^INSERT INTO status_events /);
    expect(types(outbox)).toEqual(['Insert', 'Function Scan']);
    expect(outbox.figures!.rows).toBe(r.events.length);
    expect(outbox.activity.filter((a) => a.scans > 0).map((a) => a.relation)).toEqual(['monitors_pkey']);
  });

  it('publishes and sweeps the outbox through its unpublished-events index', () => {
    const publish = statement('worker.publish', /^UPDATE status_events SET published_at/);
    expect(indexes(publish)).toEqual(['status_events_unpublished_idx']);
    const sweep = statement('worker.sweep', /^SELECT id, monitor_id, from_status/);
    expect(types(sweep)).toEqual(['Limit', 'LockRows', 'Index Scan']);
    expect(indexes(sweep)).toEqual(['status_events_unpublished_idx']);
  });

  // The sweep locks the rows it found (FOR UPDATE, in its transaction); marking them published on
  // another pooled connection would wait for those locks forever (the harness's lock_timeout
  // turns that into an error here).
  it('sweeps events left unpublished (the sweep marks them through its own transaction)', () => {
    expect(r.paths.find((p) => p.name === 'worker.sweep')!.error).toBeUndefined();
  });

  it("pages the big user's monitors in id order from an index, without a sort", () => {
    for (const path of ['api.list', 'api.list.deep']) {
      const page = statement(path, /^SELECT \* FROM monitors WHERE organization_id = \$1 ORDER BY id OFFSET \$2 LIMIT \$3$/);
      expect(types(page)).toEqual(['Limit', 'Index Scan']);
      expect(indexes(page)).toEqual(['monitors_pkey']);
      // One statement for the page: no query of its agents' ids (the list does not show them).
      expect(statementsOf(path).filter((s) => /monitor_agents/.test(s.sql))).toEqual([]);
    }
  });

  it("reads an unfiltered list's total from the organization's counter rows, counting no monitor", () => {
    for (const path of ['api.list', 'api.list.deep', 'api.list.small']) {
      const total = statement(
        path,
        /^SELECT coalesce\(sum\(monitors\), 0\)::int AS monitors FROM organization_monitor_counts WHERE organization_id = \$1$/,
      );
      expect(relationsScanned(total)).toEqual(['organization_monitor_counts']);
      expect(total.figures!.rows).toBe(1);
      expect(statementsOf(path).filter((s) => /count\(\*\)/.test(s.sql))).toEqual([]);
    }
  });

  it("pages the small user's monitors through the organization index", () => {
    const page = statement('api.list.small', /^SELECT \* FROM monitors WHERE organization_id = \$1 ORDER BY id OFFSET \$2 LIMIT \$3$/);
    expect(types(page)).toEqual(['Limit', 'Index Scan']);
    expect(indexes(page)).toEqual(['monitors_organization_idx']);
  });

  it("counts a filtered list's monitors through the index of its filter", () => {
    const count = statement('api.list.filtered', /^SELECT count\(\*\)::int AS total FROM monitors WHERE organization_id = \$1 AND status = \$2$/);
    expect(indexes(count)).toEqual(['monitors_organization_status_idx']);
    expect(count.figures!.rows).toBe(1);
    expect(relationsScanned(count)).toEqual(['monitors']);
    expect(statementsOf('api.list.filtered').some((s) => /organization_monitor_counts/.test(s.sql))).toBe(false);
  });

  it('reads one monitor through an index of its id and organization, its agents by their key', () => {
    for (const path of ['api.get', 'api.history', 'api.results', 'api.stats.24h']) {
      const read = statement(
        path,
        /^SELECT m\.\*, ARRAY\(SELECT ma\.agent_id FROM monitor_agents ma .* WHERE m\.id = \$1 AND m\.organization_id = \$2$/,
      );
      // The row by index (no Limit: the primary key makes it one), the agents' ids as its SubPlan.
      expect(types(read)).toEqual(['Index Scan', 'Index Only Scan']);
      const [agents, monitor, ...rest] = indexes(read);
      expect(agents).toBe('monitor_agents_pkey');
      expect(monitor).toMatch(/^monitors_(pkey|organization_idx)$/);
      expect(rest).toEqual([]);
      expect(read.figures!.rows).toBe(1);
    }
  });

  it("reads history and results newest first, backwards through each day's (monitor_id, scheduled_at) index under a LIMIT", () => {
    for (const [path, sql] of [
      ['api.history', /^SELECT id::text AS id, .* ORDER BY scheduled_at DESC LIMIT \$4$/],
      ['api.results', /^SELECT id::text AS id, .* ORDER BY scheduled_at DESC LIMIT \$2 OFFSET \$3$/],
    ] as const) {
      const page = statement(path, sql);
      expect(types(page).slice(0, 2)).toEqual(['Limit', 'Merge Append']);
      const scans = page.nodes.slice(2);
      expect(scans.length).toBe(r.partitions.length + 1);
      for (const n of scans) {
        expect(n).toMatchObject({ type: 'Index Scan', backward: true });
        expect(n.index).toBe(
          n.relation === 'check_results_default' ? 'check_results_default_monitor_id_scheduled_at_idx' : keyIndexOf(n.relation!),
        );
      }
    }
  });

  it("counts a monitor's results from the key index of every partition that holds rows", () => {
    for (const [path, sql] of [
      ['api.history', /^SELECT count\(\*\)::int AS total FROM check_results WHERE monitor_id = \$1 AND/],
      ['api.results', /^SELECT count\(\*\)::int AS total FROM check_results WHERE monitor_id = \$1$/],
    ] as const) {
      const count = statement(path, sql);
      const withRows = count.nodes.filter((n) => n.relation && holdsRows(n.relation));
      expect(withRows.length).toBeGreaterThanOrEqual(2);
      for (const n of withRows) expect(n).toMatchObject({ type: 'Index Only Scan', index: keyIndexOf(n.relation!) });
    }
  });

  // from/to filter on scheduled_at + start_lag_ms, an expression no partition bound or index key
  // covers: every day of the monitor is read and sorted to return one hour of it. Flip to `it`
  // once the range also bounds scheduled_at.
  it('reads a history range only from the daily partitions its check times can lie in', () => {
    const range = historyRange(r.seeded.now);
    // A check starts at most MAX_START_LAG_MS (a day) after or before its planned time.
    const allowed = new Set([-1, 0, 1].map((d) => resultPartitionName(utcDayStart(new Date(range.from.getTime() + d * 86_400_000)))));
    for (const sql of [/^SELECT id::text AS id, /, /^SELECT count\(\*\)::int AS total FROM check_results/]) {
      const touched = statement('api.history.range', sql).nodes.flatMap((n) => (n.relation?.startsWith('check_results_') ? [n.relation] : []));
      expect(touched.length).toBeGreaterThan(0);
      expect(touched.filter((t) => !allowed.has(t))).toEqual([]);
    }
  });

  it('reads a history range by the key indexes, never scanning a partition with rows', () => {
    const page = statement('api.history.range', /^SELECT id::text AS id, /);
    const read = page.nodes.filter((n) => n.relation && holdsRows(n.relation));
    expect(read.length).toBeGreaterThan(0);
    for (const n of read) {
      expect(n.type).toMatch(/^(Bitmap Heap Scan|Index Scan)$/);
      expect(indexes(page)).toContain(keyIndexOf(n.relation!));
    }
  });

  it("computes statistics from the rollups' primary keys and the incidents' monitor index", () => {
    for (const path of ['api.stats.24h', 'api.stats.90d']) {
      const series = statement(path, /^SELECT bucket, checks, successes, rt_count, rt_sum FROM check_rollups_/);
      // The key of the table, or of each of its partitions the period covers.
      expect(indexes(series).length).toBeGreaterThan(0);
      for (const i of indexes(series)) expect(parentIndexOf(i)).toBe(`${series.sql.match(/FROM (check_rollups_\w+)/)![1]}_pkey`);
      // Through the view `incidents`: the alerts of kind downtime, by the alerts' monitor index.
      const incidents = statement(path, /FROM incidents WHERE monitor_id = \$1/);
      expect(indexes(incidents)).toEqual(['alerts_monitor_idx']);
      const totals = statement(path, /^WITH r AS \(SELECT checks, successes/);
      for (const i of indexes(totals)) expect(parentIndexOf(i)).toMatch(/^check_rollups_(5m|1h|1d)_(pkey|bucket_idx)$/);
      expect(relationsScanned(totals).length).toBeGreaterThan(0);
    }
  });

  it('reads uptime by index: a page monitor by monitor through the rollup keys, a whole dashboard by bucket', () => {
    const uptimeReads = (path: string): StatementReport[] =>
      statementsOf(path).filter((s) => /FROM check_rollups_/.test(s.sql) && /monitor_id = (ANY\(\$1\)|m\.id)/.test(s.sql));
    const isPerMonitor = (s: StatementReport): boolean => /CROSS JOIN LATERAL/.test(s.sql);
    for (const path of ['api.list', 'api.list.small', 'api.get', 'api.dashboard', 'api.dashboard.warm', 'api.dashboard.small']) {
      const reads = uptimeReads(path);
      expect(reads.length).toBeGreaterThan(0);
      for (const s of reads) {
        for (const rel of relationsScanned(s)) expect(ROLLUPS).toContain(parentOf(rel));
        for (const i of indexes(s)) expect(parentIndexOf(i)).toMatch(/^check_rollups_(5m|1h|1d)_(pkey|bucket_idx)$/);
      }
    }
    // A page's live part by key whatever the minute of the hour: the planner used to switch it to
    // a range of the 5-minute bucket index over every monitor early in each hour.
    for (const path of ['api.list', 'api.list.small', 'api.get', 'api.dashboard.small']) {
      const live = uptimeReads(path).filter(isPerMonitor);
      expect(live).toHaveLength(1);
      expect([...new Set(indexesOnRows(live[0]!).map(parentIndexOf))]).toEqual(['check_rollups_1d_pkey', 'check_rollups_1h_pkey', 'check_rollups_5m_pkey']);
    }
    // A whole dashboard's live part and hourly base take each table's recent buckets by time.
    for (const s of [...uptimeReads('api.dashboard'), ...uptimeReads('api.dashboard.warm')]) {
      expect(isPerMonitor(s)).toBe(false);
      for (const i of indexes(s)) expect(i).toMatch(/_bucket_idx$/);
    }
    // A few monitors' base is read by their keys.
    for (const s of [...uptimeReads('api.get'), ...uptimeReads('api.list.small')]) {
      expect(indexes(s).some((i) => i.endsWith('_pkey'))).toBe(true);
    }
  });

  it('lists offline monitors with their open incident, both by index', () => {
    for (const path of ['api.dashboard', 'api.dashboard.small']) {
      const down = statement(path, /LEFT JOIN incidents i ON i\.id = m\.open_incident_id/);
      expect(types(down)).toContain('Nested Loop');
      expect(indexes(down)).toEqual(['alerts_pkey', 'monitors_organization_status_idx']);
    }
    const counts = statement('api.dashboard.small', /^SELECT id, status, open_incident_id, type = 'heartbeat' AS is_heartbeat FROM monitors WHERE organization_id = \$1$/);
    expect(indexes(counts)[0]).toMatch(/^monitors_organization_/);
  });

  it('reconciles by reading every active monitor once and the unscheduled ones by primary key', () => {
    const all = statement('reconciler', /^SELECT id, config_version/);
    expect(types(all)).toEqual(['Seq Scan']);
    const stale = statement('reconciler', /^SELECT m\.\*, ARRAY\(SELECT ma\.agent_id FROM monitor_agents ma .* WHERE m\.id = ANY\(\$1\)$/);
    // The monitors by primary key, each one's agents' ids by theirs (a SubPlan per row).
    expect(types(stale)).toEqual(['Index Scan', 'Index Only Scan']);
    expect(indexes(stale)).toEqual(['monitor_agents_pkey', 'monitors_pkey']);
    expect(stale.figures!.rows).toBe(r.seeded.size.unscheduled);
  });
});
