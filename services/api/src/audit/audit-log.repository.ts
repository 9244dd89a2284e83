import type { DataSource, EntityManager } from '@uptime/db';
import type { PageRequest } from '../http/pagination';

type Db = DataSource | EntityManager;

export interface NewAuditEntry {
  organizationId: number;
  actorUserId: number;
  actorTokenId: number | null;
  action: string;
  resourceType: string;
  resourceId: string | null;
  changedFields: string[];
  ip: string | null;
}

/** Writes the entries in one statement (a bulk write records one per resource). */
export async function insertAuditEntries(em: EntityManager, entries: readonly NewAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const params: unknown[] = [];
  const rows = entries.map((e) => {
    const values = [e.organizationId, e.actorUserId, e.actorTokenId, e.action, e.resourceType, e.resourceId, e.changedFields, e.ip];
    return `(${values.map((v) => `$${params.push(v)}`).join(', ')})`;
  });
  await em.query(
    `INSERT INTO audit_log (organization_id, actor_user_id, actor_token_id, action, resource_type, resource_id, changed_fields, ip)
     VALUES ${rows.join(', ')}`,
    params,
  );
}

export interface AuditFilters {
  actorUserId?: number;
  actorTokenId?: number;
  resourceType?: string;
  resourceId?: string;
  action?: string;
}

/** One entry with its actor's email and token name as they are now (null once deleted). */
export interface AuditEntryRow {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  changed_fields: string[];
  actor_user_id: number | null;
  actor_email: string | null;
  actor_token_id: number | null;
  actor_token_name: string | null;
  ip: string | null;
  created_at: Date;
}

/** One page of the organization's entries, newest first (by id: the org index serves it), and how many match. */
export async function selectAuditEntries(
  db: Db,
  organizationId: number,
  filters: AuditFilters,
  page: PageRequest,
): Promise<{ items: AuditEntryRow[]; total: number }> {
  const where = ['a.organization_id = $1'];
  const params: unknown[] = [organizationId];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    where.push(`${sql} $${params.length}`);
  };
  if (filters.actorUserId !== undefined) add('a.actor_user_id =', filters.actorUserId);
  if (filters.actorTokenId !== undefined) add('a.actor_token_id =', filters.actorTokenId);
  if (filters.resourceType !== undefined) add('a.resource_type =', filters.resourceType);
  if (filters.resourceId !== undefined) add('a.resource_id =', filters.resourceId);
  if (filters.action !== undefined) add('a.action =', filters.action);
  const condition = where.join(' AND ');
  const [items, [count]] = await Promise.all([
    db.query(
      `SELECT a.id::text AS id, a.action, a.resource_type, a.resource_id, a.changed_fields, a.actor_user_id, u.email AS actor_email,
              a.actor_token_id, t.name AS actor_token_name, a.ip, a.created_at
         FROM audit_log a
         LEFT JOIN users u ON u.id = a.actor_user_id
         LEFT JOIN api_tokens t ON t.id = a.actor_token_id
        WHERE ${condition}
        ORDER BY a.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    ) as Promise<AuditEntryRow[]>,
    db.query(`SELECT count(*)::int AS total FROM audit_log a WHERE ${condition}`, params) as Promise<{ total: number }[]>,
  ]);
  return { items, total: count?.total ?? 0 };
}

/** Removes a resource's entries: only to undo a create that could not be completed (createMonitor). */
export async function deleteAuditEntriesOfResource(em: EntityManager, organizationId: number, resourceType: string, resourceId: string): Promise<void> {
  await em.query(`DELETE FROM audit_log WHERE organization_id = $1 AND resource_type = $2 AND resource_id = $3`, [organizationId, resourceType, resourceId]);
}
