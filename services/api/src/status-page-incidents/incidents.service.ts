import { changedFieldsOf, recordAudit, type AuditContext } from '../audit/audit';
import type { DataSource, EntityManager } from '@uptime/db';
import { ConflictError, NotFoundError, ValidationError } from '@uptime/errors';
import { enqueue, JOBS, type CatalogQueue, type QueueName } from '@uptime/queues';
import type { PublicCache } from '../http/public-cache';
import { insertPageEvent } from '../status-page-subscribers/page-events.repository';
import type { PageRequest } from '../http/pagination';
import { MAX_UPDATES, type IncidentFieldsDto } from './incident.dto';
import type { NewIncident, NewIncidentUpdate } from './incident-input';
import {
  deletePageIncident,
  insertIncident,
  insertIncidentUpdate,
  isOwnPage,
  listPageIncidentIds,
  lockOwnPage,
  lockPageIncident,
  moveIncidentStatus,
  readPageIncidents,
  setIncidentMonitors,
  updateIncidentFields,
  type IncidentRow,
} from './incidents.repository';

export interface IncidentsDeps {
  ds: DataSource;
  /** The public reads' cache: the page's entry is dropped when one of its incidents changes. */
  cache: PublicCache;
  /** Where the notifier learns of an event to email the page's subscribers about. */
  statusChanges: CatalogQueue<typeof QueueName.statusChanges>;
}

/**
 * Hands a committed event to the notifiers. Should Redis refuse it, the event is still recorded
 * and the notifiers' sweep sends it (services/notifier/src/page-events/page-event-sweeper.ts): the
 * operator's write succeeded and is answered as such.
 */
async function announce(deps: IncidentsDeps, eventId: number | undefined): Promise<void> {
  if (eventId === undefined) return;
  await enqueue(deps.statusChanges, JOBS.statusPageEvent, { eventId }).catch(() => undefined);
}

/** An incident's start may be ahead of the server's clock by this much (the operator's clock may be). */
const FUTURE_SLACK_MS = 60_000;

const invalid = (field: string, message: string): ValidationError => new ValidationError(`Invalid body: ${field}`, { [field]: [message] });

/** 400 naming monitor_ids when one is not on the page (another organization's and unknown ones alike). */
function assertOnPage(pageMonitorIds: number[], monitorIds: number[]): void {
  const onPage = new Set(pageMonitorIds);
  const others = monitorIds.filter((id) => !onPage.has(id));
  if (others.length > 0)
    throw invalid('monitor_ids', `monitor_ids must hold only monitors of this status page; not on it: ${others.join(', ')}`);
}

/** The start given, refused when it lies in the future. */
function startOf(startedAt: string | undefined, now: Date): Date | undefined {
  if (startedAt === undefined) return undefined;
  const start = new Date(startedAt);
  if (start.getTime() > now.getTime() + FUTURE_SLACK_MS) throw invalid('started_at', 'started_at must not be in the future');
  return start;
}

/** The organization's page, locked while an incident of it is written, or its 404. */
async function lockPage(em: EntityManager, organizationId: number, pageId: number): Promise<{ slug: string; monitor_ids: number[] }> {
  const page = await lockOwnPage(em, organizationId, pageId);
  if (!page) throw new NotFoundError('status page', pageId);
  return page;
}

async function readOne(db: DataSource | EntityManager, organizationId: number, pageId: number, incidentId: number): Promise<IncidentRow> {
  const [incident] = await readPageIncidents(db, organizationId, pageId, [incidentId]);
  if (!incident) throw new NotFoundError('incident', incidentId);
  return incident;
}

/**
 * Runs `write` in a transaction with the page locked, then drops the page's public cache entry:
 * visitors see the change at once (docs/status-pages.md).
 */
async function writeOnPage<T extends { id: number } | void>(
  deps: IncidentsDeps,
  organizationId: number,
  pageId: number,
  write: (em: EntityManager, page: { monitor_ids: number[] }) => Promise<T>,
  incidentId?: number,
): Promise<T> {
  let slug = '';
  const result = await deps.ds.transaction(async (em) => {
    const page = await lockPage(em, organizationId, pageId);
    slug = page.slug;
    return write(em, page);
  });
  // The incident's own page is cached apart (public-incident.routes.ts).
  const id = incidentId ?? (result ? result.id : undefined);
  await deps.cache.forget([deps.cache.keyOf('page', slug), ...(id === undefined ? [] : [deps.cache.keyOf('incident', `${slug}:${id}`)])]);
  return result;
}

/** A new incident with its first update (status `investigating` unless given). */
export async function createIncident(
  deps: IncidentsDeps,
  ctx: AuditContext,
  pageId: number,
  input: NewIncident,
  now = new Date(),
): Promise<IncidentRow> {
  const started = startOf(input.started_at, now);
  const status = input.status ?? 'investigating';
  const published = input.published ?? true;
  let eventId: number | undefined;
  const incident = await writeOnPage(deps, ctx.organizationId, pageId, async (em, page) => {
    const monitorIds = input.monitor_ids ?? [];
    assertOnPage(page.monitor_ids, monitorIds);
    const id = await insertIncident(em, pageId, { title: input.title, impact: input.impact, status, started_at: started ?? null, published });
    await setIncidentMonitors(em, id, monitorIds);
    const updateId = await insertIncidentUpdate(em, id, status, input.message);
    // A draft is told to nobody; publishing it tells the subscribers (updateIncident()).
    if (published) eventId = await insertPageEvent(em, { pageId, kind: 'incident_published', incidentId: id, updateId });
    await recordAudit(em, { ...ctx, action: 'status_page_incident.create', resourceId: id, changedFields: changedFieldsOf(input) });
    return readOne(em, ctx.organizationId, pageId, id);
  });
  await announce(deps, eventId);
  return incident;
}

/** 404 STATUS_PAGE_NOT_FOUND unless the organization has the page. */
export async function assertOwnPage(ds: DataSource, organizationId: number, pageId: number): Promise<void> {
  if (!(await isOwnPage(ds, organizationId, pageId))) throw new NotFoundError('status page', pageId);
}

export async function getIncident(ds: DataSource, organizationId: number, pageId: number, incidentId: number): Promise<IncidentRow> {
  if (!(await isOwnPage(ds, organizationId, pageId))) throw new NotFoundError('status page', pageId);
  return readOne(ds, organizationId, pageId, incidentId);
}

/** The page's incidents, newest start first. */
export async function listIncidents(
  ds: DataSource,
  organizationId: number,
  pageId: number,
  page: PageRequest,
): Promise<{ items: IncidentRow[]; total: number }> {
  if (!(await isOwnPage(ds, organizationId, pageId))) throw new NotFoundError('status page', pageId);
  const { ids, total } = await listPageIncidentIds(ds, pageId, page.limit, page.offset);
  return { items: ids.length > 0 ? await readPageIncidents(ds, organizationId, pageId, ids) : [], total };
}

/**
 * PATCH: the fields given change; monitor_ids replaces the list. `published: true` on a draft
 * publishes it: visitors see it and its subscribers are told, as of a new incident, with its
 * latest update. A published incident cannot become a draft again (409 INVALID_STATE).
 */
export async function updateIncident(
  deps: IncidentsDeps,
  ctx: AuditContext,
  pageId: number,
  incidentId: number,
  input: IncidentFieldsDto,
  now = new Date(),
): Promise<IncidentRow> {
  const started = startOf(input.started_at, now);
  let eventId: number | undefined;
  const incident = await writeOnPage(
    deps,
    ctx.organizationId,
    pageId,
    async (em, page) => {
      const current = await lockPageIncident(em, pageId, incidentId);
      if (!current) throw new NotFoundError('incident', incidentId);
      if (started && current.resolved_at && started > current.resolved_at)
        throw invalid('started_at', 'started_at must not be after the incident was resolved');
      if (input.published === false && current.published)
        throw new ConflictError('INVALID_STATE', 'A published incident cannot become a draft again: its subscribers may have been told');
      if (input.monitor_ids !== undefined) {
        assertOnPage(page.monitor_ids, input.monitor_ids);
        await setIncidentMonitors(em, incidentId, input.monitor_ids);
      }
      await updateIncidentFields(em, incidentId, { title: input.title, impact: input.impact, started_at: started, published: input.published });
      if (input.published === true && !current.published && current.latest_update_id !== null) {
        eventId = await insertPageEvent(em, { pageId, kind: 'incident_published', incidentId, updateId: current.latest_update_id });
      }
      await recordAudit(em, { ...ctx, action: 'status_page_incident.update', resourceId: incidentId, changedFields: changedFieldsOf(input) });
      return readOne(em, ctx.organizationId, pageId, incidentId);
    },
    incidentId,
  );
  await announce(deps, eventId);
  return incident;
}

/**
 * Adds an update and moves the incident to its status: `resolved` sets `resolved_at`; another
 * status on a resolved incident opens it again.
 */
export async function addIncidentUpdate(
  deps: IncidentsDeps,
  ctx: AuditContext,
  pageId: number,
  incidentId: number,
  input: NewIncidentUpdate,
): Promise<IncidentRow> {
  let eventId: number | undefined;
  const incident = await writeOnPage(deps, ctx.organizationId, pageId, async (em) => {
    const current = await lockPageIncident(em, pageId, incidentId);
    if (!current) throw new NotFoundError('incident', incidentId);
    if (current.updates >= MAX_UPDATES)
      throw new ConflictError('INVALID_STATE', `An incident holds at most ${MAX_UPDATES} updates; open a new incident`);
    const updateId = await insertIncidentUpdate(em, incidentId, input.status, input.message);
    await moveIncidentStatus(em, incidentId, input.status);
    const kind = input.status === 'resolved' ? 'incident_resolved' : 'incident_updated';
    // A draft's updates are told to nobody: publishing it tells its latest.
    if (current.published) eventId = await insertPageEvent(em, { pageId, kind, incidentId, updateId });
    await recordAudit(em, {
      ...ctx,
      action: 'status_page_incident.post_update',
      resourceId: incidentId,
      changedFields: changedFieldsOf(input),
    });
    return readOne(em, ctx.organizationId, pageId, incidentId);
  });
  await announce(deps, eventId);
  return incident;
}

export async function deleteIncident(deps: IncidentsDeps, ctx: AuditContext, pageId: number, incidentId: number): Promise<void> {
  await writeOnPage(
    deps,
    ctx.organizationId,
    pageId,
    async (em) => {
      if (!(await deletePageIncident(em, pageId, incidentId))) throw new NotFoundError('incident', incidentId);
      await recordAudit(em, { ...ctx, action: 'status_page_incident.delete', resourceId: incidentId });
    },
    incidentId,
  );
}
