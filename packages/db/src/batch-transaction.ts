import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/**
 * What a write that may be given up on exposes to its statements: the check-worker's result
 * backlog (services/check-worker/src/result-backlog.ts) aborts `signal` at its deadline, and
 * `progress()` starts the deadline over.
 */
export interface WriteWatch {
  readonly signal: AbortSignal;
  /** A statement finished: the deadline starts over. */
  progress(): void;
}

/**
 * Runs `work` in a transaction, like `ds.transaction()`, whose statements each stop after
 * `statementTimeoutMs` when given. The limit is `SET LOCAL`, so it ends with the transaction and
 * the pooled connection goes back as it was; it is sent with the `START TRANSACTION`, as one
 * simple-protocol query of two statements: one round trip to Postgres, not two (the result path
 * opens one of these per batch: docs/capacity.md). It lives in the data layer, beside
 * `queryRows()`, because it sends statements of its own (START TRANSACTION, COMMIT, ROLLBACK).
 *
 * `work` gets the transaction's EntityManager for raw queries (`em.query`), as the check-worker's
 * result batch does (services/check-worker/src/check-batch.repository.ts); TypeORM is told the transaction is open, so its entity
 * methods do not open one of their own.
 *
 * With `watch`, every statement first checks that the write has not been
 * given up on, and reports its progress once it has run: a write abandoned at its deadline rolls
 * back at its next statement, and one that goes on, however slowly, is not taken as hung.
 */
export async function inBatchTransaction<T>(
  ds: DataSource,
  { statementTimeoutMs, watch }: { statementTimeoutMs?: number; watch?: WriteWatch },
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (statementTimeoutMs === undefined && watch === undefined) return ds.transaction(work);
  const runner = ds.createQueryRunner();
  // The interface marks the flag read-only; the query runner classes keep it as a plain field.
  const state = runner as { isTransactionActive: boolean };
  // ROLLBACK goes out whatever the watch says: the write it ends may be one given up on.
  const rollback = runner.query.bind(runner, 'ROLLBACK');
  if (watch) watchStatements(runner, watch);
  try {
    const limit = statementTimeoutMs === undefined ? '' : `; SET LOCAL statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`;
    await runner.query(`START TRANSACTION${limit}`);
    state.isTransactionActive = true;
    const result = await work(runner.manager);
    await runner.query('COMMIT');
    return result;
  } catch (err) {
    // As ds.transaction() does: the original error wins over a failed rollback (a lost
    // connection, which the pool then discards).
    await rollback().catch(() => undefined);
    throw err;
  } finally {
    state.isTransactionActive = false;
    await runner.release();
  }
}

/** Every statement through `runner` (and so through its manager's `em.query`) checks and reports to `watch`. */
function watchStatements(runner: QueryRunner, watch: WriteWatch): void {
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  (runner as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args) => {
    watch.signal.throwIfAborted();
    const result = await query(...args);
    watch.progress();
    return result;
  };
}
