import { Router } from 'express';
import { callerOf } from '../auth/caller';
import { sendData } from '../http/envelope';
import type { UptimeSource } from '../monitor-stats/uptime.repository';
import { toDashboardResponse } from './dashboard.presenter';
import { dashboardOf } from './dashboard.service';

export function dashboardRouter(source: UptimeSource): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    sendData(res, toDashboardResponse(await dashboardOf(source, callerOf(req).organizationId)));
  });
  return router;
}
