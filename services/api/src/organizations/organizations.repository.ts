import type { DataSource, EntityManager, OrganizationRole } from '@uptime/db';
import type { PageRequest } from '../http/pagination';

type Db = DataSource | EntityManager;

/** An organization as one member sees it: with their role there. */
export interface OrganizationRow {
  id: number;
  name: string;
  role: OrganizationRole;
  personal: boolean;
  created_at: Date;
  updated_at: Date;
}

const ORGANIZATION_COLUMNS = `o.id, o.name, m.role, (o.personal_user_id IS NOT NULL) AS personal, o.created_at, o.updated_at`;

/** One page of the organizations the user is a member of, by id, and how many there are. */
export async function selectOrganizationsOf(db: Db, userId: number, page: PageRequest): Promise<{ items: OrganizationRow[]; total: number }> {
  const items: OrganizationRow[] = await db.query(
    `SELECT ${ORGANIZATION_COLUMNS}
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = $1
      ORDER BY o.id LIMIT $2 OFFSET $3`,
    [userId, page.limit, page.offset],
  );
  const [count]: { total: number }[] = await db.query(`SELECT count(*)::int AS total FROM organization_members WHERE user_id = $1`, [userId]);
  return { items, total: count?.total ?? 0 };
}

/** The organization with the user's role there; null when they are not a member (or it does not exist). */
export async function selectOrganizationOf(db: Db, organizationId: number, userId: number): Promise<OrganizationRow | null> {
  const [row]: OrganizationRow[] = await db.query(
    `SELECT ${ORGANIZATION_COLUMNS}
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id
      WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  return row ?? null;
}

/** A new organization with its founder as owner. */
export async function insertOrganization(em: EntityManager, name: string, ownerId: number): Promise<number> {
  const [row]: { id: number }[] = await em.query(`INSERT INTO organizations (name) VALUES ($1) RETURNING id`, [name]);
  await em.query(`INSERT INTO organization_members (organization_id, user_id, role) VALUES ($1, $2, 'owner')`, [row!.id, ownerId]);
  return row!.id;
}

export async function renameOrganization(db: Db, organizationId: number, name: string): Promise<void> {
  await db.query(`UPDATE organizations SET name = $2, updated_at = now() WHERE id = $1`, [organizationId, name]);
}

/**
 * Deletes the organization and, by cascade, everything in it (docs/organizations.md). Answers the
 * ids of its monitors, whose schedules the caller removes, and the slugs and badge hashes whose
 * cached public views it drops.
 */
export async function deleteOrganizationRow(em: EntityManager, organizationId: number): Promise<{ monitorIds: number[]; slugs: string[]; badgeHashes: string[] }> {
  const monitors: { id: number }[] = await em.query(`SELECT id FROM monitors WHERE organization_id = $1 ORDER BY id FOR UPDATE`, [organizationId]);
  const pages: { slug: string }[] = await em.query(`SELECT slug FROM status_pages WHERE organization_id = $1`, [organizationId]);
  const badges: { token_hash: string }[] = await em.query(
    `SELECT b.token_hash FROM monitor_badges b JOIN monitors m ON m.id = b.monitor_id WHERE m.organization_id = $1`,
    [organizationId],
  );
  await em.query(`DELETE FROM organizations WHERE id = $1`, [organizationId]);
  return { monitorIds: monitors.map((m) => m.id), slugs: pages.map((p) => p.slug), badgeHashes: badges.map((b) => b.token_hash) };
}
