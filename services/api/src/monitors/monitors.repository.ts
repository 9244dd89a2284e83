import type { Creator } from '../auth/caller';
import { columnsOf, DataSource, entityFromRow, Monitor, queryAffected, queryRows, type EntityManager } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { PROBED_TYPES, type HeartbeatTimes } from '@uptime/probe';
import { FIELDS, type FieldDefault, type MonitorField } from './monitor-fields';
import type { PageRequest } from '../http/pagination';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import type { MonitorFilters } from './list-monitors.params';

/**
 * The writes of a monitor's fields, create and update alike, from the table of fields
 * (monitor-fields.ts): each writable field the body gave is stored in its column as the table
 * says, in one statement that hands back every column (`RETURNING *`), so nothing is selected again.
 */

/** A value as its column stores it. */
const stored = (field: MonitorField, value: unknown): unknown => (field.store ? field.store(value) : value);

/** The writable fields a body gave: column and stored value. */
function givenColumns(input: MonitorFieldsDto): { column: string; value: unknown }[] {
  const given = input as Record<string, unknown>;
  return FIELDS.filter((f) => f.writable && f.column !== undefined && given[f.api] !== undefined).map((f) => ({
    column: f.column!,
    value: stored(f, given[f.api]),
  }));
}

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
 * The rows of new monitors in one statement, in the order given: their creator's preferences are
 * read by the INSERT itself rather than in a round trip of their own. A field a body omits takes
 * its default from the table: a value, or the creator's preference (docs/dashboard.md); a field
 * without one takes the column's default (`DEFAULT` in that body's row). One statement for a bulk
 * create's bodies instead of one each: a statement's round trip, parse and plan cost more than a
 * row (docs/capacity.md, "Creating monitors").
 */
export async function insertMonitors(
  em: EntityManager,
  creator: Creator,
  inputs: readonly MonitorFieldsDto[],
  minCheckIntervalSeconds: number,
): Promise<Monitor[]> {
  const params: unknown[] = [creator.userId, creator.organizationId];
  const rows = inputs.map((input) => {
    const given = new Map(givenColumns(input).map((c) => [c.column, c.value]));
    const values = new Map<string, string>();
    for (const field of FIELDS) {
      if (field.column === undefined) continue;
      const sql = given.has(field.column)
        ? `$${params.push(given.get(field.column))}`
        : field.default && defaultSql(field, field.default, params, minCheckIntervalSeconds);
      if (sql) values.set(field.column, sql); // else neither given nor defaulted here: the column's own default
    }
    return values;
  });
  const columns = FIELDS.flatMap((f) => (f.column !== undefined && rows.some((r) => r.has(f.column!)) ? [f.column] : []));
  const tuples = rows.map((r) => `($1, $2${columns.map((c) => `, ${r.get(c) ?? 'DEFAULT'}`).join('')})`);
  const inserted = (await em.query(
    `WITH prefs AS (
       SELECT default_check_interval, default_timeout, default_locations FROM user_preferences WHERE user_id = $1
     )
     INSERT INTO monitors (owner_id, organization_id${columns.map((c) => `, ${c}`).join('')}) VALUES ${tuples.join(', ')} RETURNING *`,
    params,
  )) as Record<string, unknown>[];
  // Ids come from the sequence as the rows are inserted, in the order of VALUES: by id is as given.
  return inserted.sort((a, b) => Number(a.id) - Number(b.id)).map((row) => assignRow(em, new Monitor(), row));
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

/** The columns of a heartbeat the API writes beside its fields: its ping token and when it is next due. */
export type HeartbeatColumns = Partial<Pick<Monitor, 'heartbeatToken' | 'heartbeatDueAt' | 'heartbeatStartedAt' | 'heartbeatWaitingSince'>>;

/**
 * Writes a heartbeat's token or due time (docs/heartbeats.md): a new token names the monitor
 * from this commit on, the old one nothing. Returns the entity with every column as stored.
 */
export async function writeHeartbeatColumns(em: EntityManager, monitor: Monitor, changes: HeartbeatColumns): Promise<Monitor> {
  const params: unknown[] = [monitor.id];
  const sets = columnsOf(em, Monitor, changes).map(({ column, value }) => `${column} = $${params.push(value)}`);
  if (sets.length === 0) return monitor;
  const [row] = (await em.query(`WITH updated AS (UPDATE monitors SET ${sets.join(', ')} WHERE id = $1 RETURNING *) SELECT * FROM updated`, params)) as Record<
    string,
    unknown
  >[];
  return assignRow(em, monitor, row!);
}

/** The active heartbeats that expect a ping, with what their deadline is made of (docs/heartbeats.md). */
export async function expectingHeartbeats(ds: DataSource): Promise<(HeartbeatTimes & { id: number })[]> {
  const rows: { id: number; heartbeat_due_at: Date | null; heartbeat_started_at: Date | null; heartbeat_grace: number | null }[] = await ds.query(
    `SELECT id, heartbeat_due_at, heartbeat_started_at, heartbeat_grace FROM monitors
      WHERE type = 'heartbeat' AND status <> 'paused' AND (heartbeat_due_at IS NOT NULL OR heartbeat_started_at IS NOT NULL)`,
  );
  return rows.map((r) => ({ id: r.id, heartbeatDueAt: r.heartbeat_due_at, heartbeatStartedAt: r.heartbeat_started_at, heartbeatGrace: r.heartbeat_grace }));
}

/** A monitor with the ids of its agents (`agentIds`), which every schedule built from it carries. */
const SELECT_MONITOR = `SELECT m.*, ARRAY(SELECT ma.agent_id FROM monitor_agents ma WHERE ma.monitor_id = m.id ORDER BY ma.agent_id) AS agent_ids FROM monitors m`;

function monitorOf(db: DataSource | EntityManager, row: Record<string, unknown>): Monitor {
  const monitor = entityFromRow(db, Monitor, row);
  monitor.agentIds = row.agent_ids as number[];
  return monitor;
}

/** The caller's monitor read under a row lock: a check being recorded waits for our commit. */
export async function lockOwnMonitor(em: EntityManager, organizationId: number, id: number): Promise<Monitor> {
  const [row]: Record<string, unknown>[] = await em.query(`${SELECT_MONITOR} WHERE m.id = $1 AND m.organization_id = $2 FOR UPDATE`, [id, organizationId]);
  if (!row) throw new NotFoundError('monitor', id);
  return monitorOf(em, row);
}

/** The owner's monitor, if there is one (its agents' ids loaded with it). */
export async function selectOwnMonitor(ds: DataSource, organizationId: number, id: number): Promise<Monitor | null> {
  const [row]: Record<string, unknown>[] = await ds.query(`${SELECT_MONITOR} WHERE m.id = $1 AND m.organization_id = $2`, [id, organizationId]);
  return row ? monitorOf(ds, row) : null;
}

/** Deletes a monitor whatever its owner (undoing a create whose schedule could not be written). */
export async function deleteMonitorRow(em: EntityManager, id: number): Promise<void> {
  await em.query('DELETE FROM monitors WHERE id = $1', [id]);
}

/**
 * Deletes the owner's monitor (its results, incidents, notifications, places on status pages and
 * badge go by cascade); false when there is none. Its dependents no longer depend on it: a stale
 * id would be shown and never be offline again.
 */
export async function deleteOwnMonitor(em: EntityManager, organizationId: number, id: number): Promise<boolean> {
  if ((await queryAffected(em, 'DELETE FROM monitors WHERE id = $1 AND organization_id = $2', [id, organizationId])) === 0) return false;
  await em.query('UPDATE monitors SET depends_on = array_remove(depends_on, $1) WHERE organization_id = $2 AND $1 = ANY(depends_on)', [
    id,
    organizationId,
  ]);
  return true;
}

/** Writes the pause state of a monitor read under lock (pause and resume): status, paused_at, pause_reason, consecutive_failures. */
export async function saveMonitor(em: EntityManager, monitor: Monitor): Promise<Monitor> {
  const [row] = await queryRows<{ updated_at: Date }>(
    em,
    `UPDATE monitors SET status = $2, paused_at = $3, pause_reason = $4, consecutive_failures = $5, updated_at = now() WHERE id = $1 RETURNING updated_at`,
    [monitor.id, monitor.status, monitor.pausedAt, monitor.pauseReason, monitor.consecutiveFailures],
  );
  monitor.updatedAt = row!.updated_at;
  return monitor;
}

const likePattern = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE of the owner's monitors that pass the filters, with its parameters (the owner is $1). */
function monitorFilterSql(organizationId: number, filters: MonitorFilters): { where: string; params: unknown[] } {
  const params: unknown[] = [organizationId];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const conditions = ['organization_id = $1'];
  if (filters.status) conditions.push(`status = ${param(filters.status)}`);
  if (filters.type === 'https') conditions.push(`type = 'http' AND lower(url) LIKE 'https:%'`);
  else if (filters.type) conditions.push(`type = ${param(filters.type)}`);
  if (filters.search) {
    const pattern = param(likePattern(filters.search));
    conditions.push(`(lower(name) LIKE ${pattern} OR lower(url) LIKE ${pattern})`);
  }
  if (filters.tags?.length) conditions.push(`tags @> ${param(filters.tags)}::text[]`);
  if (filters.createdAfter) conditions.push(`created_at > ${param(filters.createdAfter)}`);
  if (filters.updatedSince) conditions.push(`updated_at >= ${param(filters.updatedSince)}`);
  return { where: conditions.join(' AND '), params };
}

/**
 * One page of the owner's monitors by id, filtered, and how many match. The page is one
 * statement whose rows are copied onto entities (assignRow), not TypeORM's getMany: that also
 * ran a query of the page's agent ids (@RelationId), which the list does not show, and a page
 * with its total cost the API about 3 ms of CPU where this costs 1.2–1.5 (25 monitors, measured
 * on a 30,000-monitor owner; docs/capacity.md). The monitors come without `agentIds`.
 * OFFSET/LIMIT and a plain count(*) of the filter: TypeORM's getManyAndCount counted DISTINCT ids
 * and paged through an id subquery, which for an owner with 30,000 monitors costs a hash of all
 * of them on every page. Without a filter the total is the owner's counter rows instead of a scan
 * of all their monitors (migration 1732270150000).
 */
export async function selectMonitors(
  ds: DataSource,
  organizationId: number,
  filters: MonitorFilters,
  page: PageRequest,
): Promise<{ items: Monitor[]; total: number }> {
  const { where, params } = monitorFilterSql(organizationId, filters);
  const pageParams = [...params, page.offset, page.limit];
  const [rows, total] = await Promise.all([
    ds.query(
      `SELECT * FROM monitors WHERE ${where} ORDER BY id OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      pageParams,
    ) as Promise<Record<string, unknown>[]>,
    isUnfiltered(filters)
      ? ownerMonitorCount(ds, organizationId)
      : (ds.query(`SELECT count(*)::int AS total FROM monitors WHERE ${where}`, params) as Promise<{ total: number }[]>).then(
          ([counted]) => counted?.total ?? 0,
        ),
  ]);
  return { items: rows.map((row) => assignRow(ds.manager, new Monitor(), row)), total };
}

/** No filter given (parseMonitorFilters leaves an absent date as an undefined key). */
const isUnfiltered = (filters: MonitorFilters): boolean => Object.values(filters).every((v) => v === undefined);

/** How many monitors the owner has: the sum of their counter rows, as the triggers on monitors keep them (none yet: no row). */
export async function ownerMonitorCount(em: Pick<EntityManager, 'query'>, organizationId: number): Promise<number> {
  const [row] = (await em.query('SELECT coalesce(sum(monitors), 0)::int AS monitors FROM organization_monitor_counts WHERE organization_id = $1', [
    organizationId,
  ])) as { monitors: number }[];
  return row?.monitors ?? 0;
}

/**
 * Serialises one organization's creates of several monitors in one transaction until it ends (an
 * advisory lock). Each new row takes its counter row (`organization_monitor_counts`, one of 16
 * slots by id, migration 1732270180000) locked until the commit, so two such transactions
 * inserting at once would take slots in opposite orders and deadlock; a create of one monitor
 * takes a single slot and cannot close a cycle, so it does not wait here.
 */
export async function lockCreatesOf(em: Pick<EntityManager, 'query'>, organizationId: number): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtext('monitor-creates'), $1)`, [organizationId]);
}

/** Serialises changes to one owner's dependencies until the transaction ends (an advisory lock). */
export async function lockDependenciesOf(em: Pick<EntityManager, 'query'>, organizationId: number): Promise<void> {
  await em.query(`SELECT pg_advisory_xact_lock(hashtext('monitor-dependencies'), $1)`, [organizationId]);
}

/** Which of these ids are monitors of the owner. */
export async function ownedMonitorIds(em: Pick<EntityManager, 'query'>, organizationId: number, ids: readonly number[]): Promise<number[]> {
  const owned: { id: number }[] = await em.query('SELECT id FROM monitors WHERE organization_id = $1 AND id = ANY($2::int[])', [
    organizationId,
    [...ids],
  ]);
  return owned.map((r) => r.id);
}

/** Whether `monitorId` is among everything these parents depend on, directly or not. */
export async function reachesMonitor(
  em: Pick<EntityManager, 'query'>,
  organizationId: number,
  parents: readonly number[],
  monitorId: number,
): Promise<boolean> {
  const [reach]: { cycle: boolean }[] = await em.query(
    `WITH RECURSIVE ancestors(id) AS (
       SELECT unnest($1::int[])
       UNION
       SELECT unnest(m.depends_on) FROM monitors m JOIN ancestors a ON m.id = a.id WHERE m.organization_id = $3
     )
     SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = $2) AS cycle`,
    [[...parents], monitorId, organizationId],
  );
  return reach?.cycle === true;
}

/**
 * Which of `monitorIds` are not the owner's. The owner's are locked against deletion (KEY SHARE)
 * until the transaction ends, so a page or window never references a monitor deleted meanwhile.
 */
export async function foreignMonitorIds(em: EntityManager, organizationId: number, monitorIds: number[]): Promise<number[]> {
  const own: { id: number }[] = await em.query(`SELECT id FROM monitors WHERE organization_id = $1 AND id = ANY($2) FOR KEY SHARE`, [organizationId, monitorIds]);
  const found = new Set(own.map((r) => r.id));
  return monitorIds.filter((id) => !found.has(id));
}

/** Writes the given columns of the owner's monitor (alert settings); false when there is none. */
export async function updateOwnMonitorColumns(db: DataSource | EntityManager, organizationId: number, id: number, changes: Partial<Monitor>): Promise<boolean> {
  const params: unknown[] = [id, organizationId];
  const sets = columnsOf(db, Monitor, changes).map(({ column, value }) => `${column} = $${params.push(value)}`);
  return (await queryAffected(db instanceof DataSource ? db.manager : db, `UPDATE monitors SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 AND organization_id = $2`, params)) > 0;
}

/** Every active probed monitor's id and the version its schedule must have (a heartbeat has none): config version and interval. */
export function activeScheduleVersions(ds: DataSource): Promise<{ id: number; version: string }[]> {
  return ds.query(`SELECT id, config_version || ':' || check_interval AS version FROM monitors WHERE status <> 'paused' AND type = ANY($1)`, [PROBED_TYPES]);
}

/** The monitors with these ids (their agents' ids loaded with them), in no particular order. */
export async function monitorsByIds(db: DataSource | EntityManager, ids: readonly number[]): Promise<Monitor[]> {
  const rows: Record<string, unknown>[] = await db.query(`${SELECT_MONITOR} WHERE m.id = ANY($1)`, [[...ids]]);
  return rows.map((row) => monitorOf(db, row));
}
