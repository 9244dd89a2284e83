import { queryAffected, type DataSource, type EntityManager, type OrganizationRole } from '@uptime/db';

type Db = DataSource | EntityManager;

/** A pending invitation as its organization's admins see it (never its secret). */
export interface InvitationRow {
  id: number;
  email: string;
  role: OrganizationRole;
  expires_at: Date;
  created_at: Date;
  invited_by_id: number | null;
  invited_by_email: string | null;
  invited_by_name: string | null;
}

const INVITATION_COLUMNS = `i.id, i.email, i.role, i.expires_at, i.created_at,
  i.invited_by AS invited_by_id, u.email AS invited_by_email, u.name AS invited_by_name`;

export async function insertInvitation(
  em: EntityManager,
  invitation: { organizationId: number; email: string; role: OrganizationRole; tokenHash: string; invitedBy: number; ttlMs: number },
): Promise<InvitationRow> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO organization_invitations (organization_id, email, role, token_hash, invited_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond') RETURNING id`,
    [invitation.organizationId, invitation.email, invitation.role, invitation.tokenHash, invitation.invitedBy, invitation.ttlMs],
  );
  const [shown]: InvitationRow[] = await em.query(
    `SELECT ${INVITATION_COLUMNS} FROM organization_invitations i LEFT JOIN users u ON u.id = i.invited_by WHERE i.id = $1`,
    [row!.id],
  );
  return shown!;
}

/** One page of the organization's pending invitations (neither accepted nor expired), by id. */
export async function selectPendingInvitations(db: Db, organizationId: number, page: { limit: number; offset: number }): Promise<{ items: InvitationRow[]; total: number }> {
  const pending = `i.organization_id = $1 AND i.accepted_at IS NULL AND i.expires_at > now()`;
  const items: InvitationRow[] = await db.query(
    `SELECT ${INVITATION_COLUMNS} FROM organization_invitations i LEFT JOIN users u ON u.id = i.invited_by
      WHERE ${pending} ORDER BY i.id LIMIT $2 OFFSET $3`,
    [organizationId, page.limit, page.offset],
  );
  const [count]: { total: number }[] = await db.query(`SELECT count(*)::int AS total FROM organization_invitations i WHERE ${pending}`, [organizationId]);
  return { items, total: count?.total ?? 0 };
}

/** Revokes (deletes) a pending invitation of the organization; false when there is none. */
export async function deletePendingInvitation(db: Db, organizationId: number, id: number): Promise<boolean> {
  const deleted = await queryAffected(
    'manager' in db ? db.manager : db,
    `DELETE FROM organization_invitations WHERE id = $2 AND organization_id = $1 AND accepted_at IS NULL AND expires_at > now()`,
    [organizationId, id],
  );
  return deleted > 0;
}

/** The invitation a link's secret names, locked until the transaction ends. */
export async function lockInvitationByHash(
  em: EntityManager,
  tokenHash: string,
): Promise<{ id: number; organization_id: number; email: string; role: OrganizationRole; expires_at: Date; accepted_at: Date | null } | null> {
  const [row]: { id: number; organization_id: number; email: string; role: OrganizationRole; expires_at: Date; accepted_at: Date | null }[] = await em.query(
    `SELECT id, organization_id, email, role, expires_at, accepted_at FROM organization_invitations WHERE token_hash = $1 FOR UPDATE`,
    [tokenHash],
  );
  return row ?? null;
}

export async function markInvitationAccepted(em: EntityManager, id: number, userId: number): Promise<void> {
  await em.query(`UPDATE organization_invitations SET accepted_at = now(), accepted_by = $2 WHERE id = $1`, [id, userId]);
}
