import { isUniqueViolation, type DataSource, type EntityManager } from '@uptime/db';
import { ConflictError, NotFoundError, ValidationError } from '@uptime/errors';
import type { PublicCache } from '../http/public-cache';
import type { PageRequest } from '../http/pagination';
import type { StatusPageFieldsDto } from './status-page.dto';
import type { NewStatusPage } from './status-page-input';
import { foreignMonitorIds, listOwnPageIds, readOwnPages, setPageMonitors, type StatusPageRow } from './status-pages.repository';

export interface StatusPagesDeps {
  ds: DataSource;
  /** The public reads' cache: a page's entry is dropped when its owner changes it. */
  cache: PublicCache;
}

const slugTaken = (slug: string): ConflictError => new ConflictError('RESOURCE_EXISTS', `The slug "${slug}" is already taken`);

/** Postgres' unique_violation. */

/** 400 naming monitor_ids when one is not the owner's; the owner's stay locked against deletion. */
export async function assertOwnMonitors(em: EntityManager, ownerId: number, monitorIds: number[]): Promise<void> {
  const foreign = await foreignMonitorIds(em, ownerId, monitorIds);
  if (foreign.length > 0) {
    throw new ValidationError('Invalid body: monitor_ids', { monitor_ids: [`monitor_ids must hold only your own monitors; not found: ${foreign.join(', ')}`] });
  }
}

async function readOne(db: DataSource | EntityManager, ownerId: number, id: number): Promise<StatusPageRow> {
  const [page] = await readOwnPages(db, ownerId, [id]);
  if (!page) throw new NotFoundError('status page', id);
  return page;
}

export async function createStatusPage(deps: StatusPagesDeps, ownerId: number, input: NewStatusPage): Promise<StatusPageRow> {
  const page = await deps.ds.transaction(async (em) => {
    await assertOwnMonitors(em, ownerId, input.monitor_ids);
    const [row]: { id: number }[] = await em.query(
      `INSERT INTO status_pages (owner_id, slug, title, description, published) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ON CONSTRAINT status_pages_slug_key DO NOTHING RETURNING id`,
      [ownerId, input.slug, input.title, input.description ?? null, input.published ?? true],
    );
    if (!row) throw slugTaken(input.slug);
    await setPageMonitors(em, row.id, input.monitor_ids);
    return readOne(em, ownerId, row.id);
  });
  // A visit before the page existed may have cached "not found".
  await deps.cache.forget([deps.cache.keyOf('page', page.slug)]);
  return page;
}

export async function getStatusPage(ds: DataSource, ownerId: number, id: number): Promise<StatusPageRow> {
  return readOne(ds, ownerId, id);
}

export async function listStatusPages(ds: DataSource, ownerId: number, page: PageRequest): Promise<{ items: StatusPageRow[]; total: number }> {
  const { ids, total } = await listOwnPageIds(ds, ownerId, page.limit, page.offset);
  return { items: ids.length > 0 ? await readOwnPages(ds, ownerId, ids) : [], total };
}

/** PUT and PATCH: the fields given change, the others stay; monitor_ids replaces the list. */
export async function updateStatusPage(deps: StatusPagesDeps, ownerId: number, id: number, input: StatusPageFieldsDto): Promise<StatusPageRow> {
  let oldSlug = '';
  let page: StatusPageRow;
  try {
    page = await deps.ds.transaction(async (em) => {
      const [current]: { slug: string }[] = await em.query(`SELECT slug FROM status_pages WHERE id = $1 AND owner_id = $2 FOR UPDATE`, [id, ownerId]);
      if (!current) throw new NotFoundError('status page', id);
      oldSlug = current.slug;
      if (input.monitor_ids !== undefined) {
        await assertOwnMonitors(em, ownerId, input.monitor_ids);
        await setPageMonitors(em, id, input.monitor_ids);
      }
      await em.query(
        `UPDATE status_pages SET slug = COALESCE($2, slug), title = COALESCE($3, title),
                description = CASE WHEN $4::boolean THEN $5 ELSE description END,
                published = COALESCE($6, published), updated_at = now()
          WHERE id = $1`,
        [id, input.slug ?? null, input.title ?? null, input.description !== undefined, input.description ?? null, input.published ?? null],
      );
      return readOne(em, ownerId, id);
    });
  } catch (err) {
    if (isUniqueViolation(err) && input.slug !== undefined) throw slugTaken(input.slug);
    throw err;
  }
  await deps.cache.forget([...new Set([oldSlug, page.slug])].map((slug) => deps.cache.keyOf('page', slug)));
  return page;
}

export async function deleteStatusPage(deps: StatusPagesDeps, ownerId: number, id: number): Promise<void> {
  const [deleted]: [{ slug: string }[], number] = await deps.ds.query(`DELETE FROM status_pages WHERE id = $1 AND owner_id = $2 RETURNING slug`, [id, ownerId]);
  if (!deleted[0]) throw new NotFoundError('status page', id);
  await deps.cache.forget([deps.cache.keyOf('page', deleted[0].slug)]);
}
