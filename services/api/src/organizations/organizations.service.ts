import type { DataSource, EntityManager } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import { recordAudit, type AuditActor } from '../audit/audit';
import type { TokenCache } from '../auth/token-cache';
import type { PageRequest } from '../http/pagination';
import type { PublicCache } from '../http/public-cache';
import { findPersonalOrganizationId } from './members.repository';
import { organizationOfMember, requireRole } from './organization-access';
import {
  deleteOrganizationRow,
  insertOrganization,
  renameOrganization,
  selectOrganizationOf,
  selectOrganizationsOf,
  type OrganizationRow,
} from './organizations.repository';

export interface OrganizationsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
  tokenCache: TokenCache;
  publicCache: PublicCache;
}

export function listOrganizations(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: OrganizationRow[]; total: number }> {
  return selectOrganizationsOf(ds, userId, page);
}

/** A new organization; its founder is its owner (docs/organizations.md). Its log starts with its creation. */
export async function createOrganization(ds: DataSource, actor: AuditActor, name: string): Promise<OrganizationRow> {
  return ds.transaction(async (em: EntityManager) => {
    const id = await insertOrganization(em, name.trim(), actor.userId);
    await recordAudit(em, { organizationId: id, actor, action: 'organization.create', resourceId: id, changedFields: ['name'] });
    return (await selectOrganizationOf(em, id, actor.userId))!;
  });
}

export function getOrganization(ds: DataSource, organizationId: number, userId: number): Promise<OrganizationRow> {
  return organizationOfMember(ds, organizationId, userId);
}

/** Admins and owners rename. */
export async function updateOrganization(ds: DataSource, organizationId: number, actor: AuditActor, name: string): Promise<OrganizationRow> {
  return ds.transaction(async (em: EntityManager) => {
    const organization = await organizationOfMember(em, organizationId, actor.userId);
    requireRole(organization.role, 'admin', 'Renaming the organization');
    await renameOrganization(em, organizationId, name.trim());
    await recordAudit(em, { organizationId, actor, action: 'organization.update', resourceId: organizationId, changedFields: ['name'] });
    return organizationOfMember(em, organizationId, actor.userId);
  });
}

/**
 * Only an owner deletes, and never a personal organization (every user keeps theirs). Everything
 * in it goes by cascade, its own audit log included; its monitors' schedules are removed and its
 * tokens forgotten by the cache, so nothing of it is checked or answered afterwards. The deletion
 * itself is recorded in the log of the owner's personal organization (docs/audit-log.md), the one
 * log of theirs that outlives it.
 */
export async function deleteOrganization(deps: OrganizationsDeps, organizationId: number, actor: AuditActor): Promise<void> {
  const removed = await deps.ds.transaction(async (em: EntityManager) => {
    const organization = await organizationOfMember(em, organizationId, actor.userId);
    requireRole(organization.role, 'owner', 'Deleting the organization');
    if (organization.personal) {
      throw new ConflictError('INVALID_STATE', 'A personal organization cannot be deleted; it goes with its account');
    }
    const gone = await deleteOrganizationRow(em, organizationId);
    const personal = await findPersonalOrganizationId(em, actor.userId);
    await recordAudit(em, { organizationId: personal, actor, action: 'organization.delete', resourceId: organizationId });
    for (const monitorId of gone.monitorIds) await deps.scheduler.unschedule(monitorId);
    return gone;
  });
  deps.tokenCache.forgetOrganization(organizationId);
  const cache = deps.publicCache;
  await cache.forget([...removed.slugs.map((slug) => cache.keyOf('page', slug)), ...removed.badgeHashes.map((hash) => cache.keyOf('badge', hash))]);
}

