import { Router, type Request } from 'express';
import { callerOf } from '../auth/caller';
import { auditContextOf } from '../audit/audit';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseIncidentCreate, parseIncidentPatch, parseIncidentUpdate, parseMarkdownPreview } from './incident-input';
import { renderIncidentMarkdown } from './incident-markdown';
import { toIncidentResponse } from './incident.presenter';
import {
  addIncidentUpdate,
  createIncident,
  deleteIncident,
  assertOwnPage,
  getIncident,
  listIncidents,
  updateIncident,
  type IncidentsDeps,
} from './incidents.service';

/** The page's id, then the incident's: a malformed one is its kind's 404. */
const pageIdOf = (req: Request): number => parseId(req.params.id, 'status page');
const incidentIdOf = (req: Request): number => parseId(req.params.incident_id, 'incident');

/** `/status-pages/{id}/incidents`: what the page's operators tell its visitors (docs/status-pages.md, "Incidents"). */
export function incidentsRouter(deps: IncidentsDeps): Router {
  const router = Router({ mergeParams: true });
  const { ds } = deps;

  router.post('/', async (req, res) => {
    const pageId = pageIdOf(req);
    const incident = await createIncident(deps, auditContextOf(req), pageId, await parseIncidentCreate(req.body));
    sendData(res, toIncidentResponse(incident), 201);
  });

  // Before '/:incident_id': "preview" is no incident id. What the composer shows while a message
  // is typed: the public page's own renderer, so the preview is what visitors will read.
  router.post('/preview', async (req, res) => {
    const pageId = pageIdOf(req);
    const { message } = await parseMarkdownPreview(req.body);
    await assertOwnPage(ds, callerOf(req).organizationId, pageId);
    sendData(res, { message_html: renderIncidentMarkdown(message) });
  });

  router.get('/', async (req, res) => {
    const pageId = pageIdOf(req);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { items, total } = await listIncidents(ds, callerOf(req).organizationId, pageId, page);
    sendList(res, items.map(toIncidentResponse), { page: page.page, limit: page.limit, total });
  });

  router.get('/:incident_id', async (req, res) => {
    const pageId = pageIdOf(req);
    sendData(res, toIncidentResponse(await getIncident(ds, callerOf(req).organizationId, pageId, incidentIdOf(req))));
  });

  router.patch('/:incident_id', async (req, res) => {
    const [pageId, incidentId] = [pageIdOf(req), incidentIdOf(req)];
    const incident = await updateIncident(deps, auditContextOf(req), pageId, incidentId, await parseIncidentPatch(req.body ?? {}));
    sendData(res, toIncidentResponse(incident));
  });

  router.delete('/:incident_id', async (req, res) => {
    const [pageId, incidentId] = [pageIdOf(req), incidentIdOf(req)];
    await deleteIncident(deps, auditContextOf(req), pageId, incidentId);
    sendMessage(res, 'Incident deleted');
  });

  router.post('/:incident_id/updates', async (req, res) => {
    const [pageId, incidentId] = [pageIdOf(req), incidentIdOf(req)];
    const incident = await addIncidentUpdate(deps, auditContextOf(req), pageId, incidentId, await parseIncidentUpdate(req.body));
    sendData(res, toIncidentResponse(incident), 201);
  });

  return router;
}
