import { Router, type RequestHandler } from 'express';
import { callerOf } from '../auth/caller';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseStatusPageCreate, parseStatusPagePatch } from './status-page-input';
import { toStatusPageResponse } from './status-page.presenter';
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

  const update: RequestHandler = async (req, res) => {
    const id = parseId(req.params.id, 'status page');
    const dto = await parseStatusPagePatch(req.body ?? {});
    sendData(res, toStatusPageResponse(await updateStatusPage(deps, callerOf(req).id, id, dto), publicUrl));
  };
  router.put('/:id', update);
  router.patch('/:id', update);

  router.delete('/:id', async (req, res) => {
    await deleteStatusPage(deps, callerOf(req).id, parseId(req.params.id, 'status page'));
    sendMessage(res, 'Status page deleted');
  });

  return router;
}
