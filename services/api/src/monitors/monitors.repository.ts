import { Monitor, type EntityManager } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { FIELDS, type FieldDefault, type MonitorField } from './monitor-fields';
import type { MonitorFieldsDto } from './monitor-fields.dto';

/**
 * The writes of a monitor's fields, create and update alike, from the table of fields
 * (monitor-fields.ts): each writable field the body gave is stored in its column as the table
 * says, in one statement that hands back every column (`RETURNING *`), so nothing is selected again.
 */

/** The writable fields a body gave: column and stored value. */
function givenColumns(input: MonitorFieldsDto): { column: string; value: unknown }[] {
  const given = input as Record<string, unknown>;
  return FIELDS.filter((f) => f.writable && f.column !== undefined && given[f.api] !== undefined).map((f) => ({
    column: f.column!,
    value: stored(f, given[f.api]),
  }));
}

const stored = (field: MonitorField, value: unknown): unknown => (field.store ? field.store(value) : value);

/** Copies a `RETURNING *` row onto the entity, every column as TypeORM would have loaded it (pg parses jsonb, arrays and timestamps). */
function assignRow(em: EntityManager, monitor: Monitor, row: Record<string, unknown>): Monitor {
  for (const column of em.connection.getMetadata(Monitor).columns) {
    (monitor as unknown as Record<string, unknown>)[column.propertyName] = row[column.databaseName];
  }
  return monitor;
}

/** The SQL of a default (the parameters it needs are pushed onto `params`). */
function defaultSql(field: MonitorField, fieldDefault: FieldDefault, params: unknown[], minCheckIntervalSeconds: number): string {
  const param = (value: unknown): string => `$${params.push(value)}`;
  if ('value' in fieldDefault) return param(stored(field, fieldDefault.value));
  const preferred = `COALESCE((SELECT ${fieldDefault.preference} FROM prefs), ${param(fieldDefault.fallback)}::${fieldDefault.cast})`;
  return fieldDefault.atLeastFloor ? `GREATEST(${preferred}, ${param(minCheckIntervalSeconds)}::integer)` : preferred;
}

/**
 * The row of a new monitor in one statement: the owner's preferences are read by the INSERT
 * itself rather than in a round trip of their own. A field the body omits takes its default from
 * the table: a value, or the owner's preference (docs/dashboard.md); a field without one takes
 * the column's default.
 */
export async function insertMonitor(em: EntityManager, ownerId: number, input: MonitorFieldsDto, minCheckIntervalSeconds: number): Promise<Monitor> {
  const params: unknown[] = [ownerId];
  const given = new Map(givenColumns(input).map((c) => [c.column, c.value]));
  const columns = ['owner_id'];
  const values = ['$1'];
  for (const field of FIELDS) {
    if (field.column === undefined) continue;
    if (given.has(field.column)) values.push(`$${params.push(given.get(field.column))}`);
    else if (field.default) values.push(defaultSql(field, field.default, params, minCheckIntervalSeconds));
    else continue;
    columns.push(field.column);
  }
  const [row] = (await em.query(
    `WITH prefs AS (
       SELECT default_check_interval, default_timeout, default_locations FROM user_preferences WHERE user_id = $1
     )
     INSERT INTO monitors (${columns.join(', ')}) VALUES (${values.join(', ')}) RETURNING *`,
    params,
  )) as Record<string, unknown>[];
  return assignRow(em, new Monitor(), row!);
}

/**
 * Writes the given fields onto a monitor already read under lock (lockOwnMonitor), bumps its
 * config version (the job template carries it) and `updated_at`, and returns the entity with
 * every column as stored; relations loaded with it (its agents) stay.
 */
export async function updateMonitorFields(em: EntityManager, monitor: Monitor, input: MonitorFieldsDto): Promise<Monitor> {
  const params: unknown[] = [monitor.id];
  const sets = givenColumns(input).map(({ column, value }) => `${column} = $${params.push(value)}`);
  // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count] instead of the rows.
  const [row] = (await em.query(
    `WITH updated AS (
       UPDATE monitors SET ${[...sets, 'config_version = config_version + 1', 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *
     )
     SELECT * FROM updated`,
    params,
  )) as Record<string, unknown>[];
  return assignRow(em, monitor, row!);
}

/** The caller's monitor read under a row lock: a check being recorded waits for our commit. */
export async function lockOwnMonitor(em: EntityManager, ownerId: number, id: number): Promise<Monitor> {
  const monitor = await em.getRepository(Monitor).findOne({ where: { id, ownerId }, lock: { mode: 'pessimistic_write' } });
  if (!monitor) throw new NotFoundError('monitor', id);
  return monitor;
}
