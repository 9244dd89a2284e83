import { Client } from 'pg';

export interface PostgresStatement {
  calls: number;
  totalMs: number;
  meanMs: number;
  rows: number;
  /** Of the database's statement time in the window. */
  percent: number;
  query: string;
}

export type PostgresProfile =
  { enabled: true; seconds: number; calls: number; totalMs: number; statements: PostgresStatement[] } | { enabled: false; note: string };

const THIS_DATABASE = `(SELECT oid FROM pg_database WHERE datname = current_database())`;
// The profiler's own reset and reads.
const NOT_OURS = `query NOT LIKE '%pg_stat_statements%'`;
const shorten = (query: string): string => {
  const flat = query.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
};

/**
 * pg_stat_statements of one database over a window. It only works when the server preloads the
 * library, which needs a restart: this never changes the server, it says how instead.
 */
export class StatementStats {
  private pg?: Client;
  private note?: string;

  constructor(private readonly databaseUrl: string) {}

  async prepare(): Promise<void> {
    this.pg = new Client({ connectionString: this.databaseUrl });
    await this.pg.connect();
    const preload = String(
      (await this.pg.query<{ shared_preload_libraries: string }>('SHOW shared_preload_libraries')).rows[0]?.shared_preload_libraries ?? '',
    );
    if (!preload.split(',').some((lib) => lib.trim() === 'pg_stat_statements')) {
      this.note =
        `pg_stat_statements is not loaded (shared_preload_libraries = '${preload}'): to profile statements, ` +
        `ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements' (keeping any already listed) and restart Postgres`;
      return;
    }
    try {
      await this.pg.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    } catch (err) {
      this.note = `pg_stat_statements is loaded but CREATE EXTENSION failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** Forgets this database's statements so far; other databases' statistics are left alone. */
  async reset(): Promise<void> {
    if (!this.note) await this.pg!.query(`SELECT pg_stat_statements_reset(0, ${THIS_DATABASE}, 0)`);
  }

  /** The statements since `reset`, the ten costliest by total execution time. */
  async read(seconds: number): Promise<PostgresProfile> {
    if (this.note) return { enabled: false, note: this.note };
    const totals = (
      await this.pg!.query<{ calls: string | null; total: number | null }>(
        `SELECT sum(calls) AS calls, sum(total_exec_time) AS total FROM pg_stat_statements WHERE dbid = ${THIS_DATABASE} AND ${NOT_OURS}`,
      )
    ).rows[0];
    const totalMs = totals?.total ?? 0;
    const rows = (
      await this.pg!.query<{ calls: string; total_exec_time: number; mean_exec_time: number; rows: string; query: string }>(
        `SELECT calls, total_exec_time, mean_exec_time, rows, query FROM pg_stat_statements WHERE dbid = ${THIS_DATABASE} AND ${NOT_OURS} ORDER BY total_exec_time DESC LIMIT 10`,
      )
    ).rows;
    return {
      enabled: true,
      seconds: Math.round(seconds * 10) / 10,
      calls: Number(totals?.calls ?? 0),
      totalMs: Math.round(totalMs),
      statements: rows.map((r) => ({
        calls: Number(r.calls),
        totalMs: Math.round(r.total_exec_time),
        meanMs: Math.round(r.mean_exec_time * 1000) / 1000,
        rows: Number(r.rows),
        percent: totalMs > 0 ? Math.round((r.total_exec_time / totalMs) * 1000) / 10 : 0,
        query: shorten(r.query),
      })),
    };
  }

  async close(): Promise<void> {
    await this.pg?.end().catch(() => undefined);
    this.pg = undefined;
  }
}
