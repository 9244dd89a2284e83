import type { DataSource, EntityManager } from '@uptime/db';

/** A status page as its owner sees it, monitors in page order. */
export interface StatusPageRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  published: boolean;
  created_at: Date;
  updated_at: Date;
  monitors: { id: number; name: string }[];
}

type Db = DataSource | EntityManager;

/** The owner's pages among `ids`, id order, each with its monitors. */
export async function readOwnPages(db: Db, ownerId: number, ids: number[]): Promise<StatusPageRow[]> {
  return db.query(
    `SELECT sp.id, sp.slug, sp.title, sp.description, sp.published, sp.created_at, sp.updated_at,
            COALESCE(json_agg(json_build_object('id', m.id, 'name', m.name) ORDER BY spm.position)
                     FILTER (WHERE m.id IS NOT NULL), '[]') AS monitors
       FROM status_pages sp
       LEFT JOIN status_page_monitors spm ON spm.status_page_id = sp.id
       LEFT JOIN monitors m ON m.id = spm.monitor_id
      WHERE sp.owner_id = $1 AND sp.id = ANY($2)
      GROUP BY sp.id
      ORDER BY sp.id`,
    [ownerId, ids],
  );
}

/** One page of the owner's page ids, id order, and how many there are. */
export async function listOwnPageIds(ds: DataSource, ownerId: number, limit: number, offset: number): Promise<{ ids: number[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT id FROM status_pages WHERE owner_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [ownerId, limit, offset]) as Promise<{ id: number }[]>,
    ds.query(`SELECT count(*)::int AS total FROM status_pages WHERE owner_id = $1`, [ownerId]) as Promise<{ total: number }[]>,
  ]);
  return { ids: rows.map((r) => r.id), total: count?.total ?? 0 };
}

/**
 * Which of `monitorIds` are not the owner's. The owner's are locked against deletion (KEY SHARE)
 * until the transaction ends, so the page never references a monitor deleted meanwhile.
 */
export async function foreignMonitorIds(em: EntityManager, ownerId: number, monitorIds: number[]): Promise<number[]> {
  const own: { id: number }[] = await em.query(`SELECT id FROM monitors WHERE owner_id = $1 AND id = ANY($2) FOR KEY SHARE`, [ownerId, monitorIds]);
  const found = new Set(own.map((r) => r.id));
  return monitorIds.filter((id) => !found.has(id));
}

/** Replaces the page's monitors, in the order given. */
export async function setPageMonitors(em: EntityManager, pageId: number, monitorIds: number[]): Promise<void> {
  await em.query(`DELETE FROM status_page_monitors WHERE status_page_id = $1`, [pageId]);
  await em.query(
    `INSERT INTO status_page_monitors (status_page_id, monitor_id, position)
     SELECT $1, id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS m(id, ord)`,
    [pageId, monitorIds],
  );
}

/**
 * What the public shows of a monitor: the slugs of the pages listing it and its badge's token
 * hash. Their cache entries are dropped when the monitor is deleted.
 */
export async function publicViewsOfMonitor(db: Db, monitorId: number): Promise<{ slugs: string[]; badgeHashes: string[] }> {
  const rows: { kind: 'page' | 'badge'; id: string }[] = await db.query(
    `SELECT 'page' AS kind, sp.slug AS id FROM status_page_monitors spm JOIN status_pages sp ON sp.id = spm.status_page_id WHERE spm.monitor_id = $1
     UNION ALL
     SELECT 'badge', token_hash FROM monitor_badges WHERE monitor_id = $1`,
    [monitorId],
  );
  return { slugs: rows.filter((r) => r.kind === 'page').map((r) => r.id), badgeHashes: rows.filter((r) => r.kind === 'badge').map((r) => r.id) };
}
