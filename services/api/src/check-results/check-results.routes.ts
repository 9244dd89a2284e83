import { Router } from 'express';
import type { DataSource } from '@uptime/db';
import { callerOf } from '../auth/caller';
import { sendData, sendList } from '../http/envelope';
import { toHeartbeatPingDetail, toHeartbeatPingResponse } from '../heartbeats/heartbeat-ping.presenter';
import { parseBigId, parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { toCheckResultResponse, toNoDataSpanResponse, toRecentChecksResponse } from './check-result.presenter';
import { heartbeatPing, monitorHistory, monitorResults, recentChecks } from './check-results.service';
import { parseHistoryQuery } from './history.params';
import { parseRecentChecksQuery } from './recent-checks.params';

/**
 * `/monitors/{id}/history` and `/monitors/{id}/results`: a monitor's recorded checks;
 * `/monitors/recent-checks`: the latest of several monitors at once
 * (docs/statistics.md); a heartbeat's results are its pings, each with its body at
 * `/results/{result_id}` (docs/heartbeats.md).
 */
export function checkResultsRouter(ds: DataSource): Router {
  const router = Router();
  const monitorId = (raw: unknown): number => parseId(raw, 'monitor');

  // Before any `/:id` route of the monitors: the latest checks of many monitors at once, for the
  // list's and the dashboard's beads (docs/web.md, "Beads").
  router.get('/recent-checks', async (req, res) => {
    const query = parseRecentChecksQuery(req.query as Record<string, unknown>);
    sendData(res, toRecentChecksResponse(await recentChecks(ds, callerOf(req).organizationId, query)));
  });

  router.get('/:id/history', async (req, res) => {
    const id = monitorId(req.params.id);
    const query = parseHistoryQuery(req.query as Record<string, unknown>);
    const now = new Date();
    const { items, total, noData } = await monitorHistory(ds, callerOf(req).organizationId, id, query, now);
    // One page of at most `limit`, the newest; `total` counts every check in the range. Beside
    // the checks, the time in the range when nobody checked (docs/statistics.md).
    sendList(
      res,
      items.map(toCheckResultResponse),
      { page: 1, limit: query.limit, total },
      { no_data: noData.map((s) => toNoDataSpanResponse(s, now)) },
    );
  });

  router.get('/:id/results', async (req, res) => {
    const id = monitorId(req.params.id);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const results = await monitorResults(ds, callerOf(req).organizationId, id, page);
    const items = results.pings ? results.pings.map(toHeartbeatPingResponse) : results.checks.map(toCheckResultResponse);
    sendList(res, items, { page: page.page, limit: page.limit, total: results.total });
  });

  router.get('/:id/results/:result_id', async (req, res) => {
    const id = monitorId(req.params.id);
    const ping = await heartbeatPing(ds, callerOf(req).organizationId, id, parseBigId(req.params.result_id, 'result'));
    sendData(res, toHeartbeatPingDetail(ping));
  });

  return router;
}
