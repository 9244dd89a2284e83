import type { DataSource, EntityManager, OrganizationRole, UserRole } from '@uptime/db';

type Db = DataSource | EntityManager;

/** The user's role in the organization; null when they are not a member (or it does not exist). */
export async function findMemberRole(db: Db, organizationId: number, userId: number): Promise<OrganizationRole | null> {
  const [row]: { role: OrganizationRole }[] = await db.query(
    `SELECT role FROM organization_members WHERE organization_id = $1 AND user_id = $2`,
    [organizationId, userId],
  );
  return row?.role ?? null;
}

/**
 * What a session request needs of its user and of the organization it acts in: the one asked for
 * by id, or the user's personal one when `organizationId` is null. `membership` is null when the
 * user is no member there; the whole answer is null when the user is gone.
 */
export async function findSessionCaller(
  db: Db,
  userId: number,
  organizationId: number | null,
): Promise<{ id: number; email: string; role: UserRole; membership: { organizationId: number; role: OrganizationRole } | null } | null> {
  const [row]: { id: number; email: string; role: UserRole; organization_id: number | null; organization_role: OrganizationRole | null }[] =
    await db.query(
      `SELECT u.id, u.email, u.role, m.organization_id, m.role AS organization_role
         FROM users u
         LEFT JOIN organization_members m ON m.user_id = u.id
          AND m.organization_id = coalesce($2::int, (SELECT o.id FROM organizations o WHERE o.personal_user_id = u.id))
        WHERE u.id = $1`,
      [userId, organizationId],
    );
  if (!row) return null;
  const membership =
    row.organization_id !== null && row.organization_role !== null ? { organizationId: row.organization_id, role: row.organization_role } : null;
  return { id: row.id, email: row.email, role: row.role, membership };
}

/** The id of the user's personal organization, which every user has (a trigger on `users` makes it). */
export async function findPersonalOrganizationId(db: Db, userId: number): Promise<number> {
  const [row]: { id: number }[] = await db.query(`SELECT id FROM organizations WHERE personal_user_id = $1`, [userId]);
  if (!row) throw new Error(`user ${userId} has no personal organization`);
  return row.id;
}
