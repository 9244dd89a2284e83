import type { Creator } from '../auth/caller';
import { attachDefaultChannels } from '../channels/channels.repository';
import { changedFieldsOf, recordAudit, recordAudits, type AuditActor } from '../audit/audit';
import { deleteAuditEntriesOfResource } from '../audit/audit-log.repository';
import type { Redis } from 'ioredis';
import type { DataSource, EntityManager, Monitor } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { keyTakenError, takenKeyOf } from '../http/resource-key';
import type { MonitorScheduler } from '@uptime/queues';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import type { MonitorFilters } from './list-monitors.params';
import type { PageRequest } from '../http/pagination';
import type { PublicCache } from '../http/public-cache';
import { publicViewsOfMonitor } from '../status-pages/status-pages.repository';
import { assertDependencies } from './monitor-dependencies';
import { assertFieldsOfType } from './monitor-type';
import { assertHeartbeatRules, withHeartbeatDefaults } from './heartbeat-rules';
import { newHeartbeatColumns, updatedHeartbeatColumns } from './heartbeat.service';
import {
  deleteMonitorRow,
  deleteOwnMonitor,
  insertMonitors,
  lockCreatesOf,
  lockOwnMonitor,
  selectMonitors,
  selectOwnMonitor,
  updateMonitorFields,
  writeHeartbeatColumns,
} from './monitors.repository';

export interface MonitorsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
  minCheckIntervalSeconds: number;
  /** ALLOW_PRIVATE_TARGETS: when false, IP-literal URLs in refused ranges are a 400. */
  allowPrivateTargets: boolean;
  /** The API's Redis commands connection (uptime cache). */
  redis: Redis;
  /** The public pages' and badges' cache: a deleted monitor leaves them at once. */
  publicCache: PublicCache;
  /** PUBLIC_URL: a heartbeat's ping URL is made of it. */
  publicUrl: string;
}

/**
 * Writes a saved monitor's schedule: a paused one has none. Called inside the transaction that
 * saved it, so a Redis failure rolls the row back (nothing half-saved); a schedule left behind
 * by a failed commit is removed by the reconciler.
 */
async function writeSchedule(deps: MonitorsDeps, saved: Monitor): Promise<void> {
  if (saved.status === 'paused') await deps.scheduler.unschedule(saved.id);
  else await deps.scheduler.schedule(saved);
}

/**
 * The rows of new monitors, inside the caller's transaction, in the order given: their
 * dependencies checked, their heartbeat columns, the organization's default channels and their
 * audit entries (which commit with the rows, docs/audit-log.md). A key another monitor has is the
 * 409 naming it. The bodies are inserted by one statement, split only before a body with
 * `depends_on`, so that its dependencies are checked after the bodies before it are inserted, as
 * when each was inserted alone.
 */
async function insertNewMonitors(
  em: EntityManager,
  deps: MonitorsDeps,
  creator: Creator,
  dtos: readonly MonitorFieldsDto[],
  actor: AuditActor,
): Promise<Monitor[]> {
  const inserted: Monitor[] = [];
  let pending: MonitorFieldsDto[] = [];
  const insertPending = async (): Promise<void> => {
    if (pending.length > 0) inserted.push(...(await insertRows(em, deps, creator, pending)));
    pending = [];
  };
  for (const dto of dtos) {
    if (dto.depends_on) {
      await insertPending();
      await assertDependencies(em, creator.organizationId, null, dto.depends_on);
    }
    pending.push(dto);
  }
  await insertPending();
  await attachDefaultChannels(
    em,
    creator.organizationId,
    inserted.map((m) => m.id),
  );
  await recordAudits(
    em,
    inserted.map((m, i) => ({
      organizationId: creator.organizationId,
      actor,
      action: 'monitor.create',
      resourceId: m.id,
      changedFields: changedFieldsOf(dtos[i]),
    })),
  );
  return inserted;
}

/** Inserts the bodies in one statement, then writes each new heartbeat's token and due time. */
async function insertRows(em: EntityManager, deps: MonitorsDeps, creator: Creator, dtos: readonly MonitorFieldsDto[]): Promise<Monitor[]> {
  try {
    const bodies = dtos.map((dto) => withHeartbeatDefaults(dto.type ?? 'http', dto, null));
    const rows = await insertMonitors(em, creator, bodies, deps.minCheckIntervalSeconds);
    const saved: Monitor[] = [];
    for (const row of rows) saved.push(row.type === 'heartbeat' ? await writeHeartbeatColumns(em, row, newHeartbeatColumns(row)) : row);
    return saved;
  } catch (err) {
    throw keyTakenError(err, 'monitor', dtos.length === 1 ? dtos[0]!.key : takenKeyOf(err)) ?? err;
  }
}

/**
 * Creates monitors, each checked at once, all or none. The rows are committed first (one
 * transaction), then their schedules and immediate checks are written to Redis together, so no
 * check can reach a worker before its monitor exists, and the request waits for two round trips
 * however many there are. Should Redis fail, the rows are deleted again: a failed create leaves
 * no monitor behind, and a schedule or check that did get written finds none (the worker drops
 * the check, the reconciler removes the schedule), as after a failed commit of writeSchedule.
 */
export async function createMonitors(deps: MonitorsDeps, creator: Creator, dtos: readonly MonitorFieldsDto[], actor: AuditActor): Promise<Monitor[]> {
  const monitors = await deps.ds.transaction(async (em) => {
    if (dtos.length > 1) await lockCreatesOf(em, creator.organizationId);
    return insertNewMonitors(em, deps, creator, dtos, actor);
  });
  // allSettled: the rows go only once no write can still land after them.
  const written = await Promise.allSettled(monitors.flatMap((m) => [deps.scheduler.schedule(m), deps.scheduler.checkNow(m)]));
  const failure = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    // Should this fail too, the monitors stay and the reconciler gives them their schedules; the
    // caller still learns that the create failed, from the original error.
    await deps.ds
      .transaction(async (em) => {
        for (const m of monitors) {
          await deleteMonitorRow(em, m.id);
          await deleteAuditEntriesOfResource(em, creator.organizationId, 'monitor', String(m.id));
        }
      })
      .catch(() => undefined);
    throw failure.reason;
  }
  return monitors;
}

/** Creates one monitor, checked at once (createMonitors). */
export async function createMonitor(deps: MonitorsDeps, creator: Creator, dto: MonitorFieldsDto, actor: AuditActor): Promise<Monitor> {
  const [monitor] = await createMonitors(deps, creator, [dto], actor);
  return monitor!;
}

/** The caller's monitor, or 404 exactly as for a missing one. */
export async function getMonitor(ds: DataSource, organizationId: number, id: number): Promise<Monitor> {
  const monitor = await selectOwnMonitor(ds, organizationId, id);
  if (!monitor) throw new NotFoundError('monitor', id);
  return monitor;
}

/**
 * Applies a body to the caller's monitor inside the caller's transaction, its schedule not yet
 * written (writeSchedule). Read under a row lock: a check-worker's status update waits for the
 * commit instead of landing between our read and our write.
 */
async function changeMonitor(em: EntityManager, organizationId: number, id: number, dto: MonitorFieldsDto, actor: AuditActor): Promise<Monitor> {
  try {
    const monitor = await lockOwnMonitor(em, organizationId, id);
    if (dto.type === undefined) assertFieldsOfType(monitor.type, dto, false);
    assertHeartbeatRules(dto.type ?? monitor.type, dto, monitor);
    if (dto.depends_on) await assertDependencies(em, organizationId, id, dto.depends_on);
    await recordAudit(em, { organizationId, actor, action: 'monitor.update', resourceId: id, changedFields: changedFieldsOf(dto) });
    const body = withHeartbeatDefaults(monitor.type, dto, monitor);
    const updated = await updateMonitorFields(em, monitor, body);
    return await writeHeartbeatColumns(em, updated, updatedHeartbeatColumns(updated, body));
  } catch (err) {
    throw keyTakenError(err, 'monitor', dto.key) ?? err;
  }
}

/** A body to apply to one monitor: the PATCH body of monitor `id`. */
export interface MonitorChange {
  id: number;
  dto: MonitorFieldsDto;
}

/**
 * Applies each body to its monitor, all or none: one transaction, the monitors locked in id order
 * (as the check-worker's batches lock them, so neither waits on the other in a cycle), then every
 * schedule written at once before the commit. Answers the monitors in the order of `changes`.
 */
export async function updateMonitors(deps: MonitorsDeps, organizationId: number, changes: readonly MonitorChange[], actor: AuditActor): Promise<Monitor[]> {
  return deps.ds.transaction(async (em: EntityManager) => {
    const saved = new Map<number, Monitor>();
    for (const { id, dto } of [...changes].sort((a, b) => a.id - b.id)) saved.set(id, await changeMonitor(em, organizationId, id, dto, actor));
    await Promise.all([...saved.values()].map((m) => writeSchedule(deps, m)));
    return changes.map(({ id }) => saved.get(id)!);
  });
}

/** Applies a body to one monitor (updateMonitors). */
export async function updateMonitor(deps: MonitorsDeps, organizationId: number, id: number, dto: MonitorFieldsDto, actor: AuditActor): Promise<Monitor> {
  const [monitor] = await updateMonitors(deps, organizationId, [{ id, dto }], actor);
  return monitor!;
}

/**
 * Removes the monitor with its schedule, results, incidents and notifications, its place on
 * status pages and its badge (all by cascade), and drops the cached public views of it.
 */
export async function deleteMonitor(deps: MonitorsDeps, organizationId: number, id: number, actor: AuditActor): Promise<void> {
  const views = await deps.ds.transaction(async (em: EntityManager) => {
    const shown = await publicViewsOfMonitor(em, id);
    if (!(await deleteOwnMonitor(em, organizationId, id))) throw new NotFoundError('monitor', id);
    await recordAudit(em, { organizationId, actor, action: 'monitor.delete', resourceId: id });
    await deps.scheduler.unschedule(id);
    return shown;
  });
  const { publicCache: cache } = deps;
  await cache.forget([
    ...views.slugs.map((slug) => cache.keyOf('page', slug)),
    ...views.badgeHashes.map((hash) => cache.keyOf('badge', hash)),
  ]);
}

/** One page of the caller's monitors by id, filtered (docs/monitors.md), and how many match. */
export function listMonitors(
  ds: DataSource,
  organizationId: number,
  filters: MonitorFilters,
  page: PageRequest,
): Promise<{ items: Monitor[]; total: number }> {
  return selectMonitors(ds, organizationId, filters, page);
}
