import { roleAtLeast, type DataSource, type EntityManager, type OrganizationRole } from '@uptime/db';
import { ForbiddenError, NotFoundError } from '@uptime/errors';
import { selectOrganizationOf, type OrganizationRow } from './organizations.repository';

/**
 * The organization named in the path, as the caller sees it: a non-member gets 404
 * ORGANIZATION_NOT_FOUND, exactly as for one that does not exist (docs/organizations.md).
 */
export async function organizationOfMember(db: DataSource | EntityManager, organizationId: number, userId: number): Promise<OrganizationRow> {
  const organization = await selectOrganizationOf(db, organizationId, userId);
  if (!organization) throw new NotFoundError('organization', organizationId);
  return organization;
}

/**
 * 403 INSUFFICIENT_PERMISSIONS naming the role needed, in the message and in `details` as every
 * other role refusal does (`RefusedRoleDetails`), unless `role` is at least `needed`.
 */
export function requireRole(role: OrganizationRole, needed: OrganizationRole, what: string): void {
  if (roleAtLeast(role, needed)) return;
  throw new ForbiddenError(`${what} needs the ${needed} role in the organization; you are ${role === 'admin' ? 'an' : 'a'} ${role}`, { required_role: needed, role });
}
