import { DataSource, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';

/**
 * An entity built from a row that raw SQL returned (`RETURNING *`, `SELECT *`): every column of
 * the entity's metadata copied onto its property, as TypeORM would have loaded it (pg has parsed
 * timestamps, arrays and jsonb already). Repositories read and write with SQL and still hand
 * the rest of the code the entity's camelCase shape. Relations are not loaded.
 */
export function entityFromRow<T extends ObjectLiteral>(db: DataSource | EntityManager, target: EntityTarget<T>, row: Record<string, unknown>): T {
  const metadata = (db instanceof DataSource ? db : db.connection).getMetadata(target);
  const entity = metadata.create() as Record<string, unknown>;
  for (const column of metadata.columns) entity[column.propertyName] = row[column.databaseName];
  return entity as T;
}
