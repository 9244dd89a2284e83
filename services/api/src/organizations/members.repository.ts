import { queryRows, type DataSource, type EntityManager, type OrganizationRole, type UserRole } from '@uptime/db';

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

/** A member as the members list shows them. */
export interface MemberRow {
  user_id: number;
  email: string;
  name: string | null;
  role: OrganizationRole;
  alerts: boolean;
  joined_at: Date;
}

const MEMBER_COLUMNS = `m.user_id, u.email, u.name, m.role, m.alerts, m.created_at AS joined_at`;

/** One page of the organization's members, by user id, and how many there are. */
export async function selectMembers(db: Db, organizationId: number, page: { limit: number; offset: number }): Promise<{ items: MemberRow[]; total: number }> {
  const items: MemberRow[] = await db.query(
    `SELECT ${MEMBER_COLUMNS} FROM organization_members m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 ORDER BY m.user_id LIMIT $2 OFFSET $3`,
    [organizationId, page.limit, page.offset],
  );
  const [count]: { total: number }[] = await db.query(`SELECT count(*)::int AS total FROM organization_members WHERE organization_id = $1`, [organizationId]);
  return { items, total: count?.total ?? 0 };
}

/**
 * The member, locked until the transaction ends, so two changes of the owners cannot both see
 * another owner left (docs/organizations.md, "Members"); null when they are no member.
 */
export async function lockMember(em: EntityManager, organizationId: number, userId: number): Promise<MemberRow | null> {
  const [row]: MemberRow[] = await em.query(
    `SELECT ${MEMBER_COLUMNS} FROM organization_members m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = $1 AND m.user_id = $2 FOR UPDATE OF m`,
    [organizationId, userId],
  );
  return row ?? null;
}

/** How many owners the organization has, their rows locked until the transaction ends. */
export async function countOwnersLocked(em: EntityManager, organizationId: number): Promise<number> {
  const rows: { user_id: number }[] = await em.query(
    `SELECT user_id FROM organization_members WHERE organization_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    [organizationId],
  );
  return rows.length;
}

export async function updateMemberRow(em: EntityManager, organizationId: number, userId: number, change: { role?: OrganizationRole; alerts?: boolean }): Promise<void> {
  await em.query(
    `UPDATE organization_members SET role = coalesce($3, role), alerts = coalesce($4, alerts) WHERE organization_id = $1 AND user_id = $2`,
    [organizationId, userId, change.role ?? null, change.alerts ?? null],
  );
}

/** Removes the member and deletes their API tokens of the organization; answers those tokens' ids. */
export async function deleteMemberRow(em: EntityManager, organizationId: number, userId: number): Promise<number[]> {
  await em.query(`DELETE FROM organization_members WHERE organization_id = $1 AND user_id = $2`, [organizationId, userId]);
  const tokens = await queryRows<{ id: number }>(em, `DELETE FROM api_tokens WHERE organization_id = $1 AND user_id = $2 RETURNING id`, [organizationId, userId]);
  return tokens.map((t) => t.id);
}

/** Adds the user with the role; false when they were a member already. */
export async function insertMember(em: EntityManager, organizationId: number, userId: number, role: OrganizationRole): Promise<boolean> {
  const rows: unknown[] = await em.query(
    `INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING user_id`,
    [organizationId, userId, role],
  );
  return rows.length > 0;
}

/** Whether a member of the organization has this address (case-insensitive). */
export async function memberWithEmailExists(db: Db, organizationId: number, email: string): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `SELECT 1 FROM organization_members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`,
    [organizationId, email],
  );
  return rows.length > 0;
}
