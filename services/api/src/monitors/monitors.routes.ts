import { Router } from 'express';
import { callerOf, creatorOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendList } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseMonitorFilters } from './list-monitors.params';
import { toMonitorResponse } from './monitor.presenter';
import { upcomingMaintenance } from '../maintenance-windows/maintenance-windows.service';
import { parseMonitorCreate, parseMonitorPatch } from './monitor-input';
import { createMonitor, deleteMonitor, getMonitor, listMonitors, updateMonitor, type MonitorsDeps } from './monitors.service';
import { uptimeByMonitor } from '../monitor-stats/uptime.repository';
import { ownedItemRoutes } from '../http/owned-item-routes';

export function monitorsRouter(deps: MonitorsDeps): Router {
  const router = Router();
  const { ds } = deps;
  const uptimeSource = { ds, redis: deps.redis, prefix: deps.scheduler.prefix };

  router.get('/', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const page = parsePage(query, { defaultLimit: 25, maxLimit: 100 });
    const filters = parseMonitorFilters(query);
    const { items, total } = await listMonitors(ds, callerOf(req).organizationId, filters, page);
    const uptime = await uptimeByMonitor(
      uptimeSource,
      items.map((m) => m.id),
    );
    sendList(
      res,
      items.map((m) => toMonitorResponse(m, deps, uptime.get(m.id))),
      { page: page.page, limit: page.limit, total },
    );
  });

  router.post('/', async (req, res) => {
    const dto = await parseMonitorCreate(req.body, deps);
    const monitor = await createMonitor(deps, creatorOf(req), dto, auditActorOf(req));
    sendData(res, toMonitorResponse(monitor, deps), 201);
  });

  // Before `/:id`: what the web form checks before sending that config decides, the interval's
  // floor (MIN_CHECK_INTERVAL_SECONDS); the other bounds are declared in packages/probe.
  router.get('/limits', (_req, res) => {
    sendData(res, { min_check_interval: deps.minCheckIntervalSeconds });
  });

  router.get('/:id', async (req, res) => {
    const monitor = await getMonitor(ds, callerOf(req).organizationId, parseId(req.params.id, 'monitor'));
    const [uptime, maintenance] = await Promise.all([uptimeByMonitor(uptimeSource, [monitor.id]), upcomingMaintenance(ds, monitor.id)]);
    sendData(res, { ...toMonitorResponse(monitor, deps, uptime.get(monitor.id)), maintenance });
  });

  ownedItemRoutes(router, 'monitor', {
    update: async (organizationId, id, body, actor) => {
      const monitor = await updateMonitor(deps, organizationId, id, await parseMonitorPatch(body, deps), actor);
      const uptime = await uptimeByMonitor(uptimeSource, [monitor.id]);
      return toMonitorResponse(monitor, deps, uptime.get(monitor.id));
    },
    remove: (organizationId, id, actor) => deleteMonitor(deps, organizationId, id, actor),
    deleted: 'Monitor deleted',
  });

  return router;
}
