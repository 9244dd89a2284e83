import type { DataSource, EntityManager } from '@uptime/db';

/**
 * Runs `work` in a transaction, like `ds.transaction()`, whose statements each stop after
 * `statementTimeoutMs` when given. The limit is `SET LOCAL`, so it ends with the transaction and
 * the pooled connection goes back as it was; it is sent with the `START TRANSACTION`, as one
 * simple-protocol query of two statements: one round trip to Postgres, not two (the result path
 * opens one of these per batch: docs/capacity.md).
 *
 * `work` gets the transaction's EntityManager for raw queries (`em.query`), as the batch's SQL
 * does (check-batch.repository.ts); TypeORM is told the transaction is open, so its entity
 * methods do not open one of their own.
 */
export async function inBatchTransaction<T>(
  ds: DataSource,
  statementTimeoutMs: number | undefined,
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (statementTimeoutMs === undefined) return ds.transaction(work);
  const runner = ds.createQueryRunner();
  // The interface marks the flag read-only; the query runner classes keep it as a plain field.
  const state = runner as { isTransactionActive: boolean };
  try {
    await runner.query(`START TRANSACTION; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`);
    state.isTransactionActive = true;
    const result = await work(runner.manager);
    await runner.query('COMMIT');
    return result;
  } catch (err) {
    // As ds.transaction() does: the original error wins over a failed rollback (a lost
    // connection, which the pool then discards).
    await runner.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    state.isTransactionActive = false;
    await runner.release();
  }
}
