import { Router } from 'express';
import type { DataSource } from '@uptime/db';
import { callerOf, creatorOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendList } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseMaintenanceWindowCreate, parseMaintenanceWindowPatch } from './maintenance-window-input';
import { toMaintenanceWindowResponse } from './maintenance-window.presenter';
import { ownedItemRoutes } from '../http/owned-item-routes';
import {
  createMaintenanceWindow,
  deleteMaintenanceWindow,
  getMaintenanceWindow,
  listMaintenanceWindows,
  updateMaintenanceWindow,
} from './maintenance-windows.service';

/** `/maintenance-windows`: the caller's planned maintenance (docs/alert-rules.md). */
export function maintenanceWindowsRouter(ds: DataSource): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const input = await parseMaintenanceWindowCreate(req.body);
    sendData(res, toMaintenanceWindowResponse(await createMaintenanceWindow(ds, creatorOf(req), input, auditActorOf(req))), 201);
  });

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 25, maxLimit: 100 });
    const { items, total } = await listMaintenanceWindows(ds, callerOf(req).organizationId, page);
    sendList(res, items.map((w) => toMaintenanceWindowResponse(w)), { page: page.page, limit: page.limit, total });
  });

  router.get('/:id', async (req, res) => {
    sendData(
      res,
      toMaintenanceWindowResponse(
        await getMaintenanceWindow(ds, callerOf(req).organizationId, parseId(req.params.id, 'maintenance window')),
      ),
    );
  });

  ownedItemRoutes(router, 'maintenance window', {
    update: async (organizationId, id, body, actor) =>
      toMaintenanceWindowResponse(await updateMaintenanceWindow(ds, organizationId, id, await parseMaintenanceWindowPatch(body), actor)),
    remove: (organizationId, id, actor) => deleteMaintenanceWindow(ds, organizationId, id, actor),
    deleted: 'Maintenance window deleted',
  });

  return router;
}
