import { performance } from 'node:perf_hooks';
import type { DataSource } from '@uptime/db';
import type { ExplainOutput } from './plan';

/** What one relation did during one statement, from the transaction's own statistics. */
export interface RelationActivity {
  relation: string;
  /** 'table' or 'index' (pg_class.relkind r / i). */
  kind: 'table' | 'index';
  /** A table: sequential scans. An index: index scans (including those of FK checks and ON CONFLICT). */
  scans: number;
  inserted: number;
  updated: number;
  /** Of `updated`, those written as heap-only tuples (no index entry added). */
  hotUpdated: number;
  deleted: number;
}

/** One statement the product ran, with the plan it got where it ran. */
export interface CapturedStatement {
  path: string;
  sql: string;
  params: unknown[];
  /** Ran inside the product's transaction (explained under a savepoint there). */
  inTransaction: boolean;
  /** Milliseconds the product's own execution took, round trip included. */
  wallMs: number;
  explain?: ExplainOutput;
  activity: RelationActivity[];
  explainError?: string;
  /** The product's own run failed with this. */
  error?: string;
}

// Transaction control and catalog look-ups are not the product's queries.
const EXPLAINABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

// Counters the backend keeps for the current transaction only (pg_stat_xact_*): the difference
// around a statement says which tables it scanned sequentially, which indexes it probed (also from
// the FK triggers and ON CONFLICT checks that EXPLAIN does not show as nodes) and where rows went.
const ACTIVITY_SQL = `
  SELECT c.relname AS relation, c.relkind AS kind, pg_stat_get_xact_numscans(c.oid)::int AS scans,
         pg_stat_get_xact_tuples_inserted(c.oid)::int AS inserted, pg_stat_get_xact_tuples_updated(c.oid)::int AS updated,
         pg_stat_get_xact_tuples_hot_updated(c.oid)::int AS "hotUpdated", pg_stat_get_xact_tuples_deleted(c.oid)::int AS deleted
    FROM pg_class c
   WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')
     AND pg_stat_get_xact_numscans(c.oid) + pg_stat_get_xact_tuples_inserted(c.oid)
       + pg_stat_get_xact_tuples_updated(c.oid) + pg_stat_get_xact_tuples_deleted(c.oid) > 0`;

type QueryRunner = ReturnType<DataSource['createQueryRunner']>;

type Activity = Omit<RelationActivity, 'kind'> & { kind: string };

function activityDiff(before: Activity[], after: Activity[]): RelationActivity[] {
  const base = new Map(before.map((r) => [r.relation, r]));
  const changed: RelationActivity[] = [];
  for (const a of after) {
    const b = base.get(a.relation);
    const d = {
      relation: a.relation,
      kind: a.kind === 'i' ? ('index' as const) : ('table' as const),
      scans: a.scans - (b?.scans ?? 0),
      inserted: a.inserted - (b?.inserted ?? 0),
      updated: a.updated - (b?.updated ?? 0),
      hotUpdated: a.hotUpdated - (b?.hotUpdated ?? 0),
      deleted: a.deleted - (b?.deleted ?? 0),
    };
    if (d.scans || d.inserted || d.updated || d.deleted) changed.push(d);
  }
  return changed.sort((x, y) => x.relation.localeCompare(y.relation));
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * EXPLAIN (ANALYZE, BUFFERS) of `sql` on the connection that is about to run it, in the state it
 * will run in: inside the product's transaction under a savepoint, else in a transaction of its
 * own, rolled back either way, so a write is measured on exactly the rows it would change and
 * leaves nothing behind.
 */
async function explainInPlace(
  run: Query,
  inTransaction: boolean,
  sql: string,
  params: unknown[],
): Promise<Pick<CapturedStatement, 'explain' | 'activity' | 'explainError'>> {
  await run(inTransaction ? 'SAVEPOINT hot_query_explain' : 'BEGIN');
  try {
    const before = (await run(ACTIVITY_SQL)) as Activity[];
    const rows = (await run(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params)) as { 'QUERY PLAN': ExplainOutput[] }[];
    const after = (await run(ACTIVITY_SQL)) as Activity[];
    return { explain: rows[0]!['QUERY PLAN'][0]!, activity: activityDiff(before, after) };
  } catch (err) {
    return { activity: [], explainError: err instanceof Error ? err.message : String(err) };
  } finally {
    await run(inTransaction ? 'ROLLBACK TO SAVEPOINT hot_query_explain' : 'ROLLBACK');
    if (inTransaction) await run('RELEASE SAVEPOINT hot_query_explain');
  }
}

/**
 * Wraps every query runner the data source hands out (plain `ds.query`, repositories, query
 * builders and `ds.transaction` all take one), so each statement the product's own functions run
 * while a path is being recorded is explained where it runs and then executed as usual.
 */
export class StatementRecorder {
  readonly statements: CapturedStatement[] = [];
  private path: string | undefined;

  constructor(ds: DataSource) {
    const create = ds.createQueryRunner.bind(ds);
    ds.createQueryRunner = (mode) => this.wrap(create(mode));
  }

  /** Runs `fn` (the product's code) and records the statements it issues under `path`. */
  async record<T>(path: string, fn: () => Promise<T>): Promise<T> {
    if (this.path !== undefined) throw new Error(`already recording ${this.path}`);
    this.path = path;
    try {
      return await fn();
    } finally {
      this.path = undefined;
    }
  }

  private wrap(runner: QueryRunner): QueryRunner {
    const original = runner.query.bind(runner) as (sql: string, params?: unknown[], structured?: boolean) => Promise<unknown>;
    const plain: Query = (sql, params) => original(sql, params);
    runner.query = async (sql: string, params?: unknown[], structured?: boolean): Promise<never> => {
      const path = this.path;
      if (path === undefined || !EXPLAINABLE.test(sql)) return original(sql, params, structured) as Promise<never>;
      const inTransaction = runner.isTransactionActive;
      const explained = await explainInPlace(plain, inTransaction, sql, params ?? []);
      const statement: CapturedStatement = { path, sql, params: params ?? [], inTransaction, wallMs: 0, ...explained };
      this.statements.push(statement);
      const started = performance.now();
      try {
        return (await original(sql, params, structured)) as never;
      } catch (err) {
        statement.error = err instanceof Error ? err.message : String(err);
        throw err;
      } finally {
        statement.wallMs = performance.now() - started;
      }
    };
    return runner;
  }
}
