import type { EntityManager } from '@uptime/db';

/**
 * Runs parameterised SQL and returns its rows, whatever the statement. TypeORM's `query()` answers
 * `[rows, count]` for UPDATE/DELETE but `rows` for the rest; the structured result is uniform.
 * Inside a transaction the manager's query runner is used, otherwise a pooled one is borrowed.
 */
export async function queryRows<T>(db: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const runner = db.queryRunner ?? db.connection.createQueryRunner();
  const isBorrowed = runner !== db.queryRunner;
  try {
    const result = await runner.query(sql, params, true);
    return result.records as T[];
  } finally {
    if (isBorrowed) await runner.release();
  }
}
