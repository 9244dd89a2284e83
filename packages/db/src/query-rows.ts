import type { EntityManager } from 'typeorm';

interface QueryOutcome<T> {
  rows: T[];
  /** Rows inserted, updated, deleted or selected (Postgres' row count). */
  affected: number;
}

/**
 * TypeORM's `query()` answers `[rows, count]` for UPDATE and DELETE but `rows` for everything
 * else; its structured result is the same for every statement. Inside a transaction the
 * manager's query runner is used, otherwise a pooled one is borrowed.
 */
async function runStructured<T>(db: EntityManager, sql: string, params: readonly unknown[]): Promise<QueryOutcome<T>> {
  const runner = db.queryRunner ?? db.connection.createQueryRunner();
  const isBorrowed = runner !== db.queryRunner;
  try {
    const result = await runner.query(sql, [...params], true);
    const rows = result.records as T[];
    return { rows, affected: result.affected ?? rows.length };
  } finally {
    if (isBorrowed) await runner.release();
  }
}

/** Runs parameterised SQL and returns its rows, whatever the statement (`UPDATE ... RETURNING` too). */
export async function queryRows<T>(db: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return (await runStructured<T>(db, sql, params)).rows;
}

/** Runs parameterised SQL and returns how many rows it touched (a `DELETE` without `RETURNING`). */
export async function queryAffected(db: EntityManager, sql: string, params: readonly unknown[] = []): Promise<number> {
  return (await runStructured<unknown>(db, sql, params)).affected;
}
