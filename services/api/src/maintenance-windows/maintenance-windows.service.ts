import type { Creator } from '../auth/caller';
import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import { upcomingOccurrences, type DataSource, type EntityManager } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { keyTakenError } from '../http/resource-key';
import type { PageRequest } from '../http/pagination';
import { canonicalTimeZone } from '../preferences/preferences.dto';
import { assertOwnMonitors } from '../monitors/own-monitors';
import type { MaintenanceWindowFieldsDto, NewMaintenanceWindow } from './maintenance-window.dto';
import { assertWeekdaysFit } from './maintenance-window-input';
import {
  deleteOwnWindow,
  insertWindow,
  listOwnWindowIds,
  lockOwnWindowRepeat,
  readOwnWindows,
  setWindowMonitors,
  updateWindowFields,
  windowsOfMonitor,
  type MaintenanceWindowRow,
} from './maintenance-windows.repository';

/** How many upcoming windows GET /monitors/{id} lists. */
export const UPCOMING_WINDOWS = 5;

async function readOne(db: DataSource | EntityManager, organizationId: number, id: number): Promise<MaintenanceWindowRow> {
  const [row] = await readOwnWindows(db, organizationId, [id]);
  if (!row) throw new NotFoundError('maintenance window', id);
  return row;
}

export async function createMaintenanceWindow(
  ds: DataSource,
  creator: Creator,
  input: NewMaintenanceWindow,
  actor: AuditActor,
): Promise<MaintenanceWindowRow> {
  const { organizationId } = creator;
  const weekdays = input.weekdays ?? [];
  const created = ds.transaction(async (em) => {
    await assertOwnMonitors(em, organizationId, input.monitor_ids);
    const id = await insertWindow(em, creator, {
      name: input.name,
      starts_at: new Date(input.starts_at),
      duration_minutes: input.duration_minutes,
      repeat: input.repeat,
      weekdays,
      timezone: canonicalTimeZone(input.timezone),
      key: input.key,
      managed_by: input.managed_by,
    });
    await setWindowMonitors(em, id, input.monitor_ids);
    await recordAudit(em, {
      organizationId,
      actor,
      action: 'maintenance_window.create',
      resourceId: id,
      changedFields: changedFieldsOf(input),
    });
    return readOne(em, organizationId, id);
  });
  return created.catch((err: unknown) => {
    throw keyTakenError(err, 'maintenance window', input.key) ?? err;
  });
}

export async function getMaintenanceWindow(ds: DataSource, organizationId: number, id: number): Promise<MaintenanceWindowRow> {
  return readOne(ds, organizationId, id);
}

export async function listMaintenanceWindows(
  ds: DataSource,
  organizationId: number,
  page: PageRequest,
): Promise<{ items: MaintenanceWindowRow[]; total: number }> {
  const { ids, total } = await listOwnWindowIds(ds, organizationId, page.limit, page.offset);
  return { items: ids.length > 0 ? await readOwnWindows(ds, organizationId, ids) : [], total };
}

/** PUT and PATCH: the fields given change, the others stay; monitor_ids replaces the list. */
export async function updateMaintenanceWindow(
  ds: DataSource,
  organizationId: number,
  id: number,
  input: MaintenanceWindowFieldsDto,
  actor: AuditActor,
): Promise<MaintenanceWindowRow> {
  const updated = ds.transaction(async (em) => {
    const current = await lockOwnWindowRepeat(em, organizationId, id);
    if (!current) throw new NotFoundError('maintenance window', id);
    const repeat = input.repeat ?? current.repeat;
    // Turning a weekly window into another kind drops its weekdays unless new ones are given.
    const weekdays = input.weekdays ?? (repeat === 'weekly' ? current.weekdays : []);
    assertWeekdaysFit(repeat, weekdays);
    if (input.monitor_ids !== undefined) {
      await assertOwnMonitors(em, organizationId, input.monitor_ids);
      await setWindowMonitors(em, id, input.monitor_ids);
    }
    await updateWindowFields(em, id, {
      name: input.name,
      starts_at: input.starts_at === undefined ? undefined : new Date(input.starts_at),
      duration_minutes: input.duration_minutes,
      repeat,
      weekdays,
      timezone: input.timezone === undefined ? undefined : canonicalTimeZone(input.timezone),
      key: input.key,
      managed_by: input.managed_by,
    });
    await recordAudit(em, {
      organizationId,
      actor,
      action: 'maintenance_window.update',
      resourceId: id,
      changedFields: changedFieldsOf(input),
    });
    return readOne(em, organizationId, id);
  });
  return updated.catch((err: unknown) => {
    throw keyTakenError(err, 'maintenance window', input.key) ?? err;
  });
}

export async function deleteMaintenanceWindow(ds: DataSource, organizationId: number, id: number, actor: AuditActor): Promise<void> {
  await ds.transaction(async (em) => {
    if (!(await deleteOwnWindow(em, organizationId, id))) throw new NotFoundError('maintenance window', id);
    await recordAudit(em, { organizationId, actor, action: 'maintenance_window.delete', resourceId: id });
  });
}

export interface UpcomingWindow {
  id: number;
  name: string;
  starts_at: string;
  ends_at: string;
}

/** The monitor's next occurrences of any of its windows, the active ones first, soonest first. */
export async function upcomingMaintenance(ds: DataSource, monitorId: number, now = new Date()): Promise<UpcomingWindow[]> {
  const windows = await windowsOfMonitor(ds, monitorId);
  return windows
    .flatMap((w) =>
      upcomingOccurrences(
        { startsAt: w.starts_at, durationMinutes: w.duration_minutes, repeat: w.repeat, weekdays: w.weekdays, timezone: w.timezone },
        now,
        UPCOMING_WINDOWS,
      ).map((o) => ({ id: w.id, name: w.name, startsAt: o.startsAt, endsAt: o.endsAt })),
    )
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id)
    .slice(0, UPCOMING_WINDOWS)
    .map((o) => ({ id: o.id, name: o.name, starts_at: o.startsAt.toISOString(), ends_at: o.endsAt.toISOString() }));
}
