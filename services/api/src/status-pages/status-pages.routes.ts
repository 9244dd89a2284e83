import { Router } from 'express';
import { callerOf, creatorOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendList } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseStatusPageCreate, parseStatusPagePatch } from './status-page-input';
import { toStatusPageResponse } from './status-page.presenter';
import { ownedItemRoutes } from '../http/owned-item-routes';
import { incidentsRouter } from '../status-page-incidents/incidents.routes';
import type { IncidentsDeps } from '../status-page-incidents/incidents.service';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { subscribersRouter } from '../status-page-subscribers/subscribers.routes';
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  previewStatusPage,
  updateStatusPage,
  type StatusPagesDeps,
} from './status-pages.service';

/** `/status-pages`: the caller's public status pages (docs/status-pages.md). */
export function statusPagesRouter(deps: StatusPagesDeps & IncidentsDeps & { publicUrl: string; source: UptimeSource }): Router {
  const router = Router();
  const { ds, publicUrl } = deps;
  router.use('/:id/incidents', incidentsRouter(deps));
  router.use('/:id/subscribers', subscribersRouter(deps));

  router.post('/', async (req, res) => {
    const page = await createStatusPage(deps, creatorOf(req), await parseStatusPageCreate(req.body), auditActorOf(req));
    sendData(res, toStatusPageResponse(page, publicUrl), 201);
  });

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { items, total } = await listStatusPages(ds, callerOf(req).organizationId, page);
    sendList(
      res,
      items.map((p) => toStatusPageResponse(p, publicUrl)),
      { page: page.page, limit: page.limit, total },
    );
  });

  router.get('/:id', async (req, res) => {
    const page = await getStatusPage(ds, callerOf(req).organizationId, parseId(req.params.id, 'status page'));
    sendData(res, toStatusPageResponse(page, publicUrl));
  });

  // The page as visitors will see it, even unpublished: the web app's preview beside the form.
  router.get('/:id/preview', async (req, res) => {
    sendData(res, await previewStatusPage(deps.source, callerOf(req).organizationId, parseId(req.params.id, 'status page'), publicUrl));
  });

  ownedItemRoutes(router, 'status page', {
    update: async (organizationId, id, body, actor) =>
      toStatusPageResponse(await updateStatusPage(deps, organizationId, id, await parseStatusPagePatch(body), actor), publicUrl),
    remove: (organizationId, id, actor) => deleteStatusPage(deps, organizationId, id, actor),
    deleted: 'Status page deleted',
  });

  return router;
}
