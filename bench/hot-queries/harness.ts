import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { ensureDatabaseExists, listResultPartitions, openDatabase, ROLLUP_PARTITIONING } from '@uptime/db';
import { createRedisConnection } from '@uptime/queues';
import { StatementRecorder, type CapturedStatement, type RelationActivity } from './capture';
import type { CheckOutcome, StatusEvent } from '../../services/check-worker/src';
import { runHotPaths, type HotPath } from './hot-paths';
import { planFigures, planLine, planNodes, type NodeInfo, type PlanFigures } from './plan';
import { seedHotQueryData, type Seeded, type SeedSize } from './seed';

/** One distinct statement of a hot path: its first run's plan, and how often the path ran it. */
export interface StatementReport {
  path: string;
  sql: string;
  calls: number;
  inTransaction: boolean;
  plan: string;
  nodes: NodeInfo[];
  activity: RelationActivity[];
  figures: PlanFigures | null;
  /** The slowest run's execution time under EXPLAIN ANALYZE, over all its calls. */
  maxExecutionMs: number | null;
  /** The product's own run (after the explained one), round trip included. */
  wallMs: number;
  params: string;
  /** EXPLAIN itself failed. */
  explainError?: string;
  /** The product's own run of it failed. */
  error?: string;
}

export interface HarnessResult {
  seeded: Seeded;
  paths: HotPath[];
  statements: StatementReport[];
  /** Day partitions of check_results, oldest first. */
  partitions: { name: string; day: Date; keyIndex: string }[];
  /** Rows per partition of check_results and of the partitioned rollups at the end (partitions without rows are absent). */
  partitionRows: Record<string, number>;
  /** The checks the batch path recorded, and the status events it returned. */
  batch: CheckOutcome[];
  events: StatusEvent[];
  seedMs: number;
  runMs: number;
  postgres: string;
}

export interface HarnessOptions {
  /** The scratch database to create, migrate, fill and drop. */
  databaseUrl: string;
  redisUrl: string;
  /** Redis key prefix of this run; its keys are deleted at the end. */
  prefix: string;
  size: SeedSize;
  log?: (line: string) => void;
}

/** `uptime_explain_<random>` beside the database of `url`. */
export function scratchDatabaseUrl(url: string): string {
  const u = new URL(url);
  u.pathname = `/uptime_explain_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return u.toString();
}

export const collapse = (sql: string): string => sql.replace(/\s+/g, ' ').trim();

function describeParam(p: unknown): string {
  if (Array.isArray(p)) return `[${p.length}]`;
  if (p instanceof Date) return p.toISOString();
  if (typeof p === 'string') return p.length > 24 ? `'${p.slice(0, 12)}…'` : `'${p}'`;
  return String(p);
}

function summarise(captured: CapturedStatement[]): StatementReport[] {
  const byKey = new Map<string, CapturedStatement[]>();
  for (const s of captured) {
    const key = `${s.path}\u0000${s.sql}`;
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  return [...byKey.values()].map((runs) => {
    const first = runs[0]!;
    const times = runs.flatMap((r) => (r.explain ? [r.explain['Execution Time']] : []));
    return {
      path: first.path,
      sql: collapse(first.sql),
      calls: runs.length,
      inTransaction: first.inTransaction,
      plan: first.explain ? planLine(first.explain.Plan) : '(not explained)',
      nodes: first.explain ? planNodes(first.explain.Plan) : [],
      activity: first.activity,
      figures: first.explain ? planFigures(first.explain) : null,
      maxExecutionMs: times.length > 0 ? Math.max(...times) : null,
      wallMs: first.wallMs,
      params: first.params.map(describeParam).join(', '),
      explainError: first.explainError,
      error: first.error,
    };
  });
}

/** Drops the database at `url` (its connections too). */
export async function dropDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * Creates and migrates the scratch database, seeds it at `size`, runs every hot path through the
 * product's functions with each statement explained where it runs, and drops the database and
 * this run's Redis keys, whatever happened.
 */
export async function runHotQueryHarness(opts: HarnessOptions): Promise<HarnessResult> {
  const log = opts.log ?? (() => undefined);
  const redis = createRedisConnection(opts.redisUrl, 'bench-explain');
  let ds: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    await ensureDatabaseExists(opts.databaseUrl);
    // A statement waiting for a lock in this single-client run waits on the run itself (as the
    // outbox sweep once did, marking rows another connection of its own had locked): fail it
    // after a second instead of hanging.
    const admin = new Client({ connectionString: opts.databaseUrl });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${new URL(opts.databaseUrl).pathname.slice(1)}" SET lock_timeout = '1s'`);
    await admin.end();
    ds = await openDatabase(opts.databaseUrl, { poolSize: 10, applicationName: 'bench-explain' });
    let t = performance.now();
    const seeded = await seedHotQueryData(ds, opts.size);
    const seedMs = performance.now() - t;
    log(`seeded in ${Math.round(seedMs)} ms: ${JSON.stringify(seeded.counts)}`);
    const recorder = new StatementRecorder(ds);
    t = performance.now();
    const { paths, batch, events } = await runHotPaths({ ds, redis, prefix: opts.prefix, recorder, seeded });
    const runMs = performance.now() - t;
    log(`${paths.length} hot paths, ${recorder.statements.length} statements explained in ${Math.round(runMs)} ms`);
    const partitions = (await listResultPartitions(ds)).map((p) => ({ name: p.name, day: p.day, keyIndex: p.keyIndex }));
    const perPartition: { name: string; n: number }[] = await ds.query(
      ['check_results', ...ROLLUP_PARTITIONING.map((t) => t.table)].map((table) => `SELECT tableoid::regclass::text AS name, count(*)::int AS n FROM ${table} GROUP BY 1`).join(' UNION ALL '),
    );
    const [{ version }] = (await ds.query(`SELECT current_setting('server_version') AS version`)) as [{ version: string }];
    return {
      seeded,
      paths,
      statements: summarise(recorder.statements),
      partitions,
      partitionRows: Object.fromEntries(perPartition.map((p) => [p.name, p.n])),
      batch,
      events,
      seedMs,
      runMs,
      postgres: version,
    };
  } finally {
    if (ds?.isInitialized) await ds.destroy();
    await dropDatabase(opts.databaseUrl);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${opts.prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
  }
}
