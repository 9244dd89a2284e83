import type { Creator } from '../auth/caller';
import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import { isUniqueViolation, type DataSource, type EntityManager } from '@uptime/db';
import { keyTakenError } from '../http/resource-key';
import { ConflictError, NotFoundError, ValidationError } from '@uptime/errors';
import type { PublicCache } from '../http/public-cache';
import type { PageRequest } from '../http/pagination';
import type { StatusPageFieldsDto } from './status-page.dto';
import type { NewStatusPage } from './status-page-input';
import type { PageSectionInput } from './page-sections';
import { assertOwnMonitors } from '../monitors/own-monitors';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { readPublicStatus, type PublicStatusPage } from './public-status';
import {
  deleteOwnPage,
  incidentIdsOfPage,
  insertStatusPage,
  listOwnPageIds,
  lockOwnPageSlug,
  pageMonitorIds,
  readOwnPages,
  setPageMonitors,
  setPageSections,
  updatePageFields,
  type StatusPageRow,
} from './status-pages.repository';

export interface StatusPagesDeps {
  ds: DataSource;
  /** The public reads' cache: a page's entry is dropped when its owner changes it. */
  cache: PublicCache;
}

const slugTaken = (slug: string): ConflictError => new ConflictError('RESOURCE_EXISTS', `The slug "${slug}" is already taken`);

/** The 409 of a unique violation: the custom domain's (another page has it), else the slug's. */
function takenError(err: unknown, input: { slug?: string; custom_domain?: string | null; key?: string | null }): ConflictError | undefined {
  if (!isUniqueViolation(err)) return undefined;
  const keyTaken = keyTakenError(err, 'status page', input.key);
  if (keyTaken) return keyTaken;
  const constraint = (err as { driverError?: { constraint?: string } }).driverError?.constraint;
  if (constraint === 'status_pages_custom_domain_key') return new ConflictError('RESOURCE_EXISTS', `The custom domain "${input.custom_domain}" is already taken`);
  return input.slug === undefined ? undefined : slugTaken(input.slug);
}

/**
 * Replaces the page's sections. Their monitors must be among the page's (`onPage`), which are the
 * caller's own: another's monitor, or one not on the page, is a 400 naming `sections`.
 */
async function writeSections(em: EntityManager, pageId: number, sections: PageSectionInput[], onPage: readonly number[]): Promise<void> {
  const known = new Set(onPage);
  const missing = [...new Set(sections.flatMap((s) => s.monitor_ids).filter((id) => !known.has(id)))];
  if (missing.length > 0) {
    throw new ValidationError('Invalid body: sections', {
      sections: [`sections must hold only monitors of the page (its monitor_ids); not on the page: ${missing.join(', ')}`],
    });
  }
  await setPageSections(em, pageId, sections);
}

async function readOne(db: DataSource | EntityManager, organizationId: number, id: number): Promise<StatusPageRow> {
  const [page] = await readOwnPages(db, organizationId, [id]);
  if (!page) throw new NotFoundError('status page', id);
  return page;
}

/** The public cache entries of a page under `slugs`: the page's and its incidents' own pages. */
function publicKeysOf(cache: PublicCache, slugs: string[], incidentIds: number[]): string[] {
  return slugs.flatMap((slug) => [cache.keyOf('page', slug), ...incidentIds.map((i) => cache.keyOf('incident', `${slug}:${i}`))]);
}

export async function createStatusPage(
  deps: StatusPagesDeps,
  creator: Creator,
  input: NewStatusPage,
  actor: AuditActor,
): Promise<StatusPageRow> {
  const { organizationId } = creator;
  const page = await deps.ds
    .transaction(async (em) => {
      await assertOwnMonitors(em, organizationId, input.monitor_ids);
      const id = await insertStatusPage(em, creator, input);
      if (id === null) throw slugTaken(input.slug);
      await setPageMonitors(em, id, input.monitor_ids);
      if (input.sections !== undefined) await writeSections(em, id, input.sections, input.monitor_ids);
      await recordAudit(em, { organizationId, actor, action: 'status_page.create', resourceId: id, changedFields: changedFieldsOf(input) });
      return readOne(em, organizationId, id);
    })
    .catch((err: unknown) => {
      throw takenError(err, input) ?? err;
    });
  // A visit before the page existed may have cached "not found".
  await deps.cache.forget([deps.cache.keyOf('page', page.slug)]);
  return page;
}

export async function getStatusPage(ds: DataSource, organizationId: number, id: number): Promise<StatusPageRow> {
  return readOne(ds, organizationId, id);
}

/**
 * The page as visitors will read it, published or not, for its owner's preview: the very view
 * the public route builds (readPublicStatus()), read by id within the organization and never
 * cached, so the preview shows a change at once (docs/status-pages.md, "Preview").
 */
export async function previewStatusPage(source: UptimeSource, organizationId: number, id: number, publicUrl: string): Promise<PublicStatusPage> {
  const read = await readPublicStatus(source, { organizationId, id }, publicUrl);
  if (!read) throw new NotFoundError('status page', id);
  return read.page;
}

export async function listStatusPages(
  ds: DataSource,
  organizationId: number,
  page: PageRequest,
): Promise<{ items: StatusPageRow[]; total: number }> {
  const { ids, total } = await listOwnPageIds(ds, organizationId, page.limit, page.offset);
  return { items: ids.length > 0 ? await readOwnPages(ds, organizationId, ids) : [], total };
}

/**
 * PUT and PATCH: the fields given change, the others stay; monitor_ids replaces the list (a
 * monitor taken off leaves its section), sections replaces every section.
 */
export async function updateStatusPage(
  deps: StatusPagesDeps,
  organizationId: number,
  id: number,
  input: StatusPageFieldsDto,
  actor: AuditActor,
): Promise<StatusPageRow> {
  let oldSlug = '';
  let incidentIds: number[] = [];
  let page: StatusPageRow;
  try {
    page = await deps.ds.transaction(async (em) => {
      const current = await lockOwnPageSlug(em, organizationId, id);
      if (current === null) throw new NotFoundError('status page', id);
      oldSlug = current;
      incidentIds = await incidentIdsOfPage(em, id);
      if (input.monitor_ids !== undefined) {
        await assertOwnMonitors(em, organizationId, input.monitor_ids);
        await setPageMonitors(em, id, input.monitor_ids);
      }
      if (input.sections !== undefined) await writeSections(em, id, input.sections, input.monitor_ids ?? (await pageMonitorIds(em, id)));
      await updatePageFields(em, id, input);
      await recordAudit(em, { organizationId, actor, action: 'status_page.update', resourceId: id, changedFields: changedFieldsOf(input) });
      return readOne(em, organizationId, id);
    });
  } catch (err) {
    throw takenError(err, input) ?? err;
  }
  await deps.cache.forget(publicKeysOf(deps.cache, [...new Set([oldSlug, page.slug])], incidentIds));
  return page;
}

export async function deleteStatusPage(deps: StatusPagesDeps, organizationId: number, id: number, actor: AuditActor): Promise<void> {
  let incidentIds: number[] = [];
  const slug = await deps.ds.transaction(async (em) => {
    incidentIds = await incidentIdsOfPage(em, id);
    const deleted = await deleteOwnPage(em, organizationId, id);
    if (deleted === null) throw new NotFoundError('status page', id);
    await recordAudit(em, { organizationId, actor, action: 'status_page.delete', resourceId: id });
    return deleted;
  });
  await deps.cache.forget(publicKeysOf(deps.cache, [slug], incidentIds));
}
