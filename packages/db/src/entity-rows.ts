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

/**
 * The columns and values of an entity's changed properties, for an UPDATE written in SQL:
 * `{ webhookSecret: 'x' }` of a Monitor is `[{ column: 'webhook_secret', value: 'x' }]`. A property
 * that is not a column is refused, so a typo cannot reach the statement.
 */
export function columnsOf<T extends ObjectLiteral>(
  db: DataSource | EntityManager,
  target: EntityTarget<T>,
  changes: Partial<T>,
): { column: string; value: unknown }[] {
  const metadata = (db instanceof DataSource ? db : db.connection).getMetadata(target);
  return Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([property, value]) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`${metadata.name}.${property} is not a column`);
      return { column: column.databaseName, value };
    });
}
