import type { Creator } from '../auth/caller';
import { attachDefaultChannels } from '../channels/channels.repository';
import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import { deleteAuditEntriesOfResource } from '../audit/audit-log.repository';
import type { Redis } from 'ioredis';
import type { DataSource, EntityManager, Monitor } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { keyTakenError } from '../http/resource-key';
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
  insertMonitor,
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
 * Writes the fields and the schedule together: the schedule is written before the commit, so a
 * Redis failure rolls the row back (nothing half-created); a schedule left behind by a failed
 * commit is removed by the reconciler. An immediate check is queued only after the commit (see
 * createMonitor): queued earlier, a fast worker would find no committed monitor and drop it.
 */
async function saveAndSchedule(em: EntityManager, deps: MonitorsDeps, monitor: Monitor, dto: MonitorFieldsDto): Promise<Monitor> {
  const updated = await updateMonitorFields(em, monitor, dto);
  const saved = await writeHeartbeatColumns(em, updated, updatedHeartbeatColumns(updated, dto));
  if (saved.status === 'paused') await deps.scheduler.unschedule(saved.id);
  else await deps.scheduler.schedule(saved);
  return saved;
}

/**
 * Creates a monitor, checked at once. The row is committed first (one statement, no transaction
 * around it), then its schedule and its immediate check are written to Redis together, so no
 * check can reach a worker before the monitor exists, and the request waits for two round trips
 * in all. Should Redis fail, the row is deleted again: a failed create leaves no monitor behind,
 * and a schedule or check that did get written finds none (the worker drops the check, the
 * reconciler removes the schedule), as after a failed commit of saveAndSchedule. The audit entry
 * commits with the row, and goes with it when the row is deleted again (docs/audit-log.md).
 */
export async function createMonitor(deps: MonitorsDeps, creator: Creator, dto: MonitorFieldsDto, actor: AuditActor): Promise<Monitor> {
  if (dto.depends_on) await assertDependencies(deps.ds.manager, creator.organizationId, null, dto.depends_on);
  const monitor = await deps.ds
    .transaction(async (em) => {
      const type = dto.type ?? 'http';
      const row = await insertMonitor(em, creator, withHeartbeatDefaults(type, dto, null), deps.minCheckIntervalSeconds);
      const inserted = type === 'heartbeat' ? await writeHeartbeatColumns(em, row, newHeartbeatColumns(row)) : row;
      await attachDefaultChannels(em, creator.organizationId, inserted.id);
      await recordAudit(em, {
        organizationId: creator.organizationId,
        actor,
        action: 'monitor.create',
        resourceId: inserted.id,
        changedFields: changedFieldsOf(dto),
      });
      return inserted;
    })
    .catch((err: unknown) => {
      throw keyTakenError(err, 'monitor', dto.key) ?? err;
    });
  // allSettled: the row goes only once neither write can still land after it.
  const written = await Promise.allSettled([deps.scheduler.schedule(monitor), deps.scheduler.checkNow(monitor)]);
  const failure = written.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    // Should this fail too, the monitor stays and the reconciler gives it its schedule; the
    // caller still learns that the create failed, from the original error.
    await deps.ds
      .transaction(async (em) => {
        await deleteMonitorRow(em, monitor.id);
        await deleteAuditEntriesOfResource(em, creator.organizationId, 'monitor', String(monitor.id));
      })
      .catch(() => undefined);
    throw failure.reason;
  }
  return monitor;
}

/** The caller's monitor, or 404 exactly as for a missing one. */
export async function getMonitor(ds: DataSource, organizationId: number, id: number): Promise<Monitor> {
  const monitor = await selectOwnMonitor(ds, organizationId, id);
  if (!monitor) throw new NotFoundError('monitor', id);
  return monitor;
}

export async function updateMonitor(
  deps: MonitorsDeps,
  organizationId: number,
  id: number,
  dto: MonitorFieldsDto,
  actor: AuditActor,
): Promise<Monitor> {
  const updated = deps.ds.transaction(async (em: EntityManager) => {
    // Read under a row lock: a check-worker's status update waits for this commit instead of
    // landing between our read and our write.
    const monitor = await lockOwnMonitor(em, organizationId, id);
    if (dto.type === undefined) assertFieldsOfType(monitor.type, dto, false);
    assertHeartbeatRules(dto.type ?? monitor.type, dto, monitor);
    if (dto.depends_on) await assertDependencies(em, organizationId, id, dto.depends_on);
    await recordAudit(em, { organizationId, actor, action: 'monitor.update', resourceId: id, changedFields: changedFieldsOf(dto) });
    return saveAndSchedule(em, deps, monitor, withHeartbeatDefaults(monitor.type, dto, monitor));
  });
  return updated.catch((err: unknown) => {
    throw keyTakenError(err, 'monitor', dto.key) ?? err;
  });
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
