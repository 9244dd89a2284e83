import { queryAffected, type DataSource } from '@uptime/db';

/**
 * Deletes up to `chunk` rows of `table` older than `cutoff` by `column`, in one short statement;
 * returns how many went. `table` must not be partitioned: a ctid is unique only within one table.
 */
export function deleteOldChunk(ds: DataSource, table: string, column: string, cutoff: Date, chunk: number): Promise<number> {
  return queryAffected(ds.manager, `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT $2))`, [cutoff, chunk]);
}
