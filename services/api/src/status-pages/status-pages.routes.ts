import { Router } from 'express';
import { callerOf } from '../auth/caller';
import { sendData, sendList } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseStatusPageCreate, parseStatusPagePatch } from './status-page-input';
import { toStatusPageResponse } from './status-page.presenter';
import { ownedItemRoutes } from '../http/owned-item-routes';
import {
  createStatusPage,
  deleteStatusPage,
  getStatusPage,
  listStatusPages,
  updateStatusPage,
  type StatusPagesDeps,
} from './status-pages.service';

/** `/status-pages`: the caller's public status pages (docs/status-pages.md). */
export function statusPagesRouter(deps: StatusPagesDeps & { publicUrl: string }): Router {
  const router = Router();
  const { ds, publicUrl } = deps;

  router.post('/', async (req, res) => {
    const page = await createStatusPage(deps, callerOf(req).id, await parseStatusPageCreate(req.body));
    sendData(res, toStatusPageResponse(page, publicUrl), 201);
  });

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { items, total } = await listStatusPages(ds, callerOf(req).id, page);
    sendList(
      res,
      items.map((p) => toStatusPageResponse(p, publicUrl)),
      { page: page.page, limit: page.limit, total },
    );
  });

  router.get('/:id', async (req, res) => {
    const page = await getStatusPage(ds, callerOf(req).id, parseId(req.params.id, 'status page'));
    sendData(res, toStatusPageResponse(page, publicUrl));
  });

  ownedItemRoutes(router, 'status page', {
    update: async (ownerId, id, body) => toStatusPageResponse(await updateStatusPage(deps, ownerId, id, await parseStatusPagePatch(body)), publicUrl),
    remove: (ownerId, id) => deleteStatusPage(deps, ownerId, id),
    deleted: 'Status page deleted',
  });

  return router;
}
