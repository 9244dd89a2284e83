import { Router } from 'express';
import { callerOf } from '../auth/caller';
import { sendData } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parseStatsQuery } from './stats.params';
import { toStatsResponse } from './stats.presenter';
import { monitorStats } from './stats.service';
import type { UptimeSource } from './uptime.repository';

/** `/monitors/{id}/stats`: uptime, response times, incidents and series from rollups (docs/statistics.md). */
export function monitorStatsRouter(source: UptimeSource): Router {
  const router = Router();

  router.get('/:id/stats', async (req, res) => {
    const id = parseId(req.params.id, 'monitor');
    const query = parseStatsQuery(req.query as Record<string, unknown>);
    sendData(res, toStatsResponse(await monitorStats(source, callerOf(req).organizationId, id, query)));
  });

  return router;
}
