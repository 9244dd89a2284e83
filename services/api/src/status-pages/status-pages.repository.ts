import type { Creator } from '../auth/caller';
import type { DataSource, EntityManager } from '@uptime/db';
import type { ManagedBy } from '../http/resource-key';

/** A status page as its owner sees it, monitors in page order. */
export interface StatusPageRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  published: boolean;
  auto_incidents: boolean;
  custom_domain: string | null;
  key: string | null;
  managed_by: ManagedBy | null;
  created_at: Date;
  updated_at: Date;
  monitors: { id: number; name: string }[];
  /** Its named sections in order, each with its monitors in order (page-sections.ts). */
  sections: { name: string; monitor_ids: number[] }[];
}

type Db = DataSource | EntityManager;

/** The owner's pages among `ids`, id order, each with its monitors. */
export async function readOwnPages(db: Db, organizationId: number, ids: number[]): Promise<StatusPageRow[]> {
  return db.query(
    `SELECT sp.id, sp.slug, sp.title, sp.description, sp.published, sp.auto_incidents, sp.custom_domain, sp.key, sp.managed_by, sp.created_at, sp.updated_at,
            COALESCE(json_agg(json_build_object('id', m.id, 'name', m.name) ORDER BY spm.position)
                     FILTER (WHERE m.id IS NOT NULL), '[]') AS monitors,
            (SELECT COALESCE(json_agg(json_build_object('name', s.name, 'monitor_ids',
                                        (SELECT COALESCE(json_agg(ssm.monitor_id ORDER BY ssm.position), '[]')
                                           FROM status_page_section_monitors ssm WHERE ssm.section_id = s.id))
                                      ORDER BY s.position), '[]')
               FROM status_page_sections s WHERE s.status_page_id = sp.id) AS sections
       FROM status_pages sp
       LEFT JOIN status_page_monitors spm ON spm.status_page_id = sp.id
       LEFT JOIN monitors m ON m.id = spm.monitor_id
      WHERE sp.organization_id = $1 AND sp.id = ANY($2)
      GROUP BY sp.id
      ORDER BY sp.id`,
    [organizationId, ids],
  );
}

/** One page of the owner's page ids, id order, and how many there are. */
export async function listOwnPageIds(ds: DataSource, organizationId: number, limit: number, offset: number): Promise<{ ids: number[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT id FROM status_pages WHERE organization_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [organizationId, limit, offset]) as Promise<{ id: number }[]>,
    ds.query(`SELECT count(*)::int AS total FROM status_pages WHERE organization_id = $1`, [organizationId]) as Promise<{ total: number }[]>,
  ]);
  return { ids: rows.map((r) => r.id), total: count?.total ?? 0 };
}

/** Inserts a page; null when its slug is taken (the unique constraint, without an error that would abort the transaction). */
export async function insertStatusPage(
  em: EntityManager,
  creator: Creator,
  page: { slug: string; title: string; description?: string | null; published?: boolean; auto_incidents?: boolean; custom_domain?: string | null; key?: string | null; managed_by?: ManagedBy | null },
): Promise<number | null> {
  const [row]: { id: number }[] = await em.query(
    `INSERT INTO status_pages (owner_id, organization_id, slug, title, description, published, custom_domain, key, managed_by, auto_incidents) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT ON CONSTRAINT status_pages_slug_key DO NOTHING RETURNING id`,
    [creator.userId, creator.organizationId, page.slug, page.title, page.description ?? null, page.published ?? true, page.custom_domain ?? null, page.key ?? null, page.managed_by ?? null, page.auto_incidents ?? false],
  );
  return row?.id ?? null;
}

/** The slug of the owner's page, read under a row lock until the transaction ends; null when there is none. */
export async function lockOwnPageSlug(em: EntityManager, organizationId: number, id: number): Promise<string | null> {
  const [current]: { slug: string }[] = await em.query(`SELECT slug FROM status_pages WHERE id = $1 AND organization_id = $2 FOR UPDATE`, [id, organizationId]);
  return current?.slug ?? null;
}

/** Writes the given fields of a page; an absent one stays, a `description` given as null clears it. */
export async function updatePageFields(
  em: EntityManager,
  id: number,
  fields: { slug?: string; title?: string; description?: string | null; published?: boolean; auto_incidents?: boolean; custom_domain?: string | null; key?: string | null; managed_by?: ManagedBy | null },
): Promise<void> {
  await em.query(
    `UPDATE status_pages SET slug = COALESCE($2, slug), title = COALESCE($3, title),
            description = CASE WHEN $4::boolean THEN $5 ELSE description END,
            published = COALESCE($6, published),
            custom_domain = CASE WHEN $7::boolean THEN $8 ELSE custom_domain END,
            key = CASE WHEN $9::boolean THEN $10 ELSE key END,
            managed_by = CASE WHEN $11::boolean THEN $12 ELSE managed_by END,
            auto_incidents = COALESCE($13, auto_incidents), updated_at = now()
      WHERE id = $1`,
    [
      id,
      fields.slug ?? null,
      fields.title ?? null,
      fields.description !== undefined,
      fields.description ?? null,
      fields.published ?? null,
      fields.custom_domain !== undefined,
      fields.custom_domain ?? null,
      fields.key !== undefined,
      fields.key ?? null,
      fields.managed_by !== undefined,
      fields.managed_by ?? null,
      fields.auto_incidents ?? null,
    ],
  );
}

/** Deletes the owner's page and returns its slug; null when there is none. */
export async function deleteOwnPage(db: Db, organizationId: number, id: number): Promise<string | null> {
  const [deleted]: [{ slug: string }[], number] = await db.query(`DELETE FROM status_pages WHERE id = $1 AND organization_id = $2 RETURNING slug`, [id, organizationId]);
  return deleted[0]?.slug ?? null;
}

/**
 * Replaces the page's monitors, in the order given. The rows of monitors that stay are updated
 * in place, not re-inserted, so they keep their sections; a monitor taken off leaves its section
 * with it (the cascade of status_page_section_monitors).
 */
export async function setPageMonitors(em: EntityManager, pageId: number, monitorIds: number[]): Promise<void> {
  await em.query(`DELETE FROM status_page_monitors WHERE status_page_id = $1 AND monitor_id <> ALL($2::int[])`, [pageId, monitorIds]);
  await em.query(
    `INSERT INTO status_page_monitors (status_page_id, monitor_id, position)
     SELECT $1, id, ord - 1 FROM unnest($2::int[]) WITH ORDINALITY AS m(id, ord)
     ON CONFLICT (status_page_id, monitor_id) DO UPDATE SET position = EXCLUDED.position`,
    [pageId, monitorIds],
  );
}

/** The ids of the page's monitors, in page order. */
export async function pageMonitorIds(em: EntityManager, pageId: number): Promise<number[]> {
  const rows: { monitor_id: number }[] = await em.query(`SELECT monitor_id FROM status_page_monitors WHERE status_page_id = $1 ORDER BY position`, [pageId]);
  return rows.map((r) => r.monitor_id);
}

/**
 * Replaces the page's sections, in the order given, each name trimmed; their monitors must be on
 * the page already (the foreign key to status_page_monitors holds it).
 */
export async function setPageSections(em: EntityManager, pageId: number, sections: { name: string; monitor_ids: number[] }[]): Promise<void> {
  await em.query(`DELETE FROM status_page_sections WHERE status_page_id = $1`, [pageId]);
  if (sections.length === 0) return;
  const rows: { id: number; position: number }[] = await em.query(
    `INSERT INTO status_page_sections (status_page_id, name, position)
     SELECT $1, btrim(name), ord - 1 FROM unnest($2::text[]) WITH ORDINALITY AS s(name, ord)
     RETURNING id, position`,
    [pageId, sections.map((s) => s.name)],
  );
  const idAt = new Map(rows.map((r) => [r.position, r.id]));
  const members = sections.flatMap((s, i) => s.monitor_ids.map((monitorId, position) => ({ sectionId: idAt.get(i)!, monitorId, position })));
  if (members.length === 0) return;
  await em.query(
    `INSERT INTO status_page_section_monitors (status_page_id, section_id, monitor_id, position)
     SELECT $1, * FROM unnest($2::int[], $3::int[], $4::int[])`,
    [pageId, members.map((m) => m.sectionId), members.map((m) => m.monitorId), members.map((m) => m.position)],
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

/** The ids of the page's incidents: their own public pages are cached apart, and dropped with the page's. */
export async function incidentIdsOfPage(db: Db, pageId: number): Promise<number[]> {
  const rows: { id: number }[] = await db.query(`SELECT id FROM status_page_incidents WHERE status_page_id = $1`, [pageId]);
  return rows.map((r) => r.id);
}
