/**
 * The roles a member has in an organization, least to most (docs/organizations.md, "Roles"):
 * `viewer` reads and acknowledges, `member` changes monitoring resources, `admin` also manages
 * members, `owner` also deletes the organization and changes owners.
 */
export const ORGANIZATION_ROLES = ['viewer', 'member', 'admin', 'owner'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

/** Whether `role` may do what `needed` may. */
export function roleAtLeast(role: OrganizationRole, needed: OrganizationRole): boolean {
  return ORGANIZATION_ROLES.indexOf(role) >= ORGANIZATION_ROLES.indexOf(needed);
}

export function isOrganizationRole(value: unknown): value is OrganizationRole {
  return typeof value === 'string' && (ORGANIZATION_ROLES as readonly string[]).includes(value);
}
