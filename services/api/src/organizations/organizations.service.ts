import type { DataSource, EntityManager } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import type { TokenCache } from '../auth/token-cache';
import type { PageRequest } from '../http/pagination';
import type { PublicCache } from '../http/public-cache';
import { organizationOfMember, requireRole } from './organization-access';
import { deleteOrganizationRow, insertOrganization, renameOrganization, selectOrganizationOf, selectOrganizationsOf, type OrganizationRow } from './organizations.repository';

export interface OrganizationsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
  tokenCache: TokenCache;
  publicCache: PublicCache;
}

export function listOrganizations(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: OrganizationRow[]; total: number }> {
  return selectOrganizationsOf(ds, userId, page);
}

/** A new organization; its founder is its owner (docs/organizations.md). */
export async function createOrganization(ds: DataSource, userId: number, name: string): Promise<OrganizationRow> {
  return ds.transaction(async (em: EntityManager) => {
    const id = await insertOrganization(em, name.trim(), userId);
    return (await selectOrganizationOf(em, id, userId))!;
  });
}

export function getOrganization(ds: DataSource, organizationId: number, userId: number): Promise<OrganizationRow> {
  return organizationOfMember(ds, organizationId, userId);
}

/** Admins and owners rename. */
export async function updateOrganization(ds: DataSource, organizationId: number, userId: number, name: string): Promise<OrganizationRow> {
  const organization = await organizationOfMember(ds, organizationId, userId);
  requireRole(organization.role, 'admin', 'Renaming the organization');
  await renameOrganization(ds, organizationId, name.trim());
  return organizationOfMember(ds, organizationId, userId);
}

/**
 * Only an owner deletes, and never a personal organization (every user keeps theirs). Everything
 * in it goes by cascade; its monitors' schedules are removed and its tokens forgotten by the
 * cache, so nothing of it is checked or answered afterwards.
 */
export async function deleteOrganization(deps: OrganizationsDeps, organizationId: number, userId: number): Promise<void> {
  const removed = await deps.ds.transaction(async (em: EntityManager) => {
    const organization = await organizationOfMember(em, organizationId, userId);
    requireRole(organization.role, 'owner', 'Deleting the organization');
    if (organization.personal) {
      throw new ConflictError('INVALID_STATE', 'A personal organization cannot be deleted; it goes with its account');
    }
    const gone = await deleteOrganizationRow(em, organizationId);
    for (const monitorId of gone.monitorIds) await deps.scheduler.unschedule(monitorId);
    return gone;
  });
  deps.tokenCache.forgetOrganization(organizationId);
  const cache = deps.publicCache;
  await cache.forget([...removed.slugs.map((slug) => cache.keyOf('page', slug)), ...removed.badgeHashes.map((hash) => cache.keyOf('badge', hash))]);
}

