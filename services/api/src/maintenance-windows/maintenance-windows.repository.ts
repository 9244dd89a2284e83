import type { Creator } from '../auth/caller';
import type { DataSource, EntityManager, MaintenanceRepeat } from '@uptime/db';
import type { ManagedBy } from '../http/resource-key';

/** A maintenance window as its owner sees it. */
export interface MaintenanceWindowRow {
  id: number;
  name: string;
  starts_at: Date;
  duration_minutes: number;
  repeat: MaintenanceRepeat;
  weekdays: number[];
  timezone: string;
  monitor_ids: number[];
  key: string | null;
  managed_by: ManagedBy | null;
  created_at: Date;
  updated_at: Date;
}

type Db = DataSource | EntityManager;

const SELECT_WINDOWS = `
  SELECT w.id, w.name, w.starts_at, w.duration_minutes, w.repeat, w.weekdays, w.timezone, w.key, w.managed_by, w.created_at, w.updated_at,
         COALESCE(array_agg(wm.monitor_id ORDER BY wm.monitor_id) FILTER (WHERE wm.monitor_id IS NOT NULL), '{}') AS monitor_ids
    FROM maintenance_windows w
    LEFT JOIN maintenance_window_monitors wm ON wm.window_id = w.id`;

/** The owner's windows among `ids`, id order. */
export async function readOwnWindows(db: Db, organizationId: number, ids: number[]): Promise<MaintenanceWindowRow[]> {
  return db.query(`${SELECT_WINDOWS} WHERE w.organization_id = $1 AND w.id = ANY($2) GROUP BY w.id ORDER BY w.id`, [organizationId, ids]);
}

/** Every window covering the monitor (its owner's, as only they can link it). */
export async function windowsOfMonitor(db: Db, monitorId: number): Promise<MaintenanceWindowRow[]> {
  return db.query(
    `${SELECT_WINDOWS} WHERE w.id IN (SELECT window_id FROM maintenance_window_monitors WHERE monitor_id = $1) GROUP BY w.id ORDER BY w.id`,
    [monitorId],
  );
}

/** One page of the owner's window ids, id order, and how many there are. */
export async function listOwnWindowIds(ds: DataSource, organizationId: number, limit: number, offset: number): Promise<{ ids: number[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT id FROM maintenance_windows WHERE organization_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [organizationId, limit, offset]) as Promise<{ id: number }[]>,
    ds.query(`SELECT count(*)::int AS total FROM maintenance_windows WHERE organization_id = $1`, [organizationId]) as Promise<{ total: number }[]>,
  ]);
  return { ids: rows.map((r) => r.id), total: count?.total ?? 0 };
}

/** Replaces the window's monitors. */
export async function setWindowMonitors(em: EntityManager, windowId: number, monitorIds: number[]): Promise<void> {
  await em.query(`DELETE FROM maintenance_window_monitors WHERE window_id = $1`, [windowId]);
  await em.query(`INSERT INTO maintenance_window_monitors (window_id, monitor_id) SELECT $1, unnest($2::int[])`, [windowId, monitorIds]);
}

/** The stored form of a window's fields: `starts_at` a Date, the time zone already canonical. */
export interface WindowFields {
  name: string;
  starts_at: Date;
  duration_minutes: number;
  repeat: string;
  weekdays: number[];
  /** Already canonical; null for a zone that is not one (the DTO refused it before). */
  timezone: string | null;
  /** Absent: unchanged on update (null on insert); null clears it. */
  key?: string | null;
  managed_by?: ManagedBy | null;
}

/** Inserts a window and returns its id. */
export async function insertWindow(em: EntityManager, creator: Creator, w: WindowFields): Promise<number> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO maintenance_windows (owner_id, organization_id, name, starts_at, duration_minutes, repeat, weekdays, timezone, key, managed_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [creator.userId, creator.organizationId, w.name, w.starts_at, w.duration_minutes, w.repeat, w.weekdays, w.timezone, w.key ?? null, w.managed_by ?? null],
  );
  return row!.id;
}

/** The repeat and weekdays of the owner's window, read under a row lock until the transaction ends; null when there is none. */
export async function lockOwnWindowRepeat(em: EntityManager, organizationId: number, id: number): Promise<{ repeat: string; weekdays: number[] } | null> {
  const [current]: { repeat: string; weekdays: number[] }[] = await em.query(
    `SELECT repeat, weekdays FROM maintenance_windows WHERE id = $1 AND organization_id = $2 FOR UPDATE`,
    [id, organizationId],
  );
  return current ?? null;
}

/** Writes a window's fields: repeat and weekdays always, the others when given. */
export async function updateWindowFields(
  em: EntityManager,
  id: number,
  w: Partial<Omit<WindowFields, 'repeat' | 'weekdays'>> & Pick<WindowFields, 'repeat' | 'weekdays'>,
): Promise<void> {
  await em.query(
    `UPDATE maintenance_windows SET name = COALESCE($2, name), starts_at = COALESCE($3, starts_at),
            duration_minutes = COALESCE($4, duration_minutes), repeat = $5, weekdays = $6,
            timezone = COALESCE($7, timezone),
            key = CASE WHEN $8::boolean THEN $9 ELSE key END,
            managed_by = CASE WHEN $10::boolean THEN $11 ELSE managed_by END, updated_at = now()
      WHERE id = $1`,
    [id, w.name ?? null, w.starts_at ?? null, w.duration_minutes ?? null, w.repeat, w.weekdays, w.timezone ?? null, w.key !== undefined, w.key ?? null, w.managed_by !== undefined, w.managed_by ?? null],
  );
}

/** Deletes the owner's window; false when there is none. */
export async function deleteOwnWindow(db: Db, organizationId: number, id: number): Promise<boolean> {
  const [deleted]: [{ id: number }[], number] = await db.query(`DELETE FROM maintenance_windows WHERE id = $1 AND organization_id = $2 RETURNING id`, [id, organizationId]);
  return deleted.length > 0;
}
