import { Router, type RequestHandler } from 'express';
import { callerOf } from '../auth/caller';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseInput } from '../http/validate';
import { AlertSettingsDto } from './alert-settings.dto';
import { getAlertSettings, toAlertSettingsResponse, updateAlertSettings } from './alert-settings.service';
import { parseBulkRequest } from './bulk.dto';
import { runBulk } from './bulk.service';
import { monitorHistory, monitorResults, parseHistoryQuery, toCheckResultResponse } from './check-results.service';
import { toMonitorResponse } from './monitor.presenter';
import { pauseMonitor, resumeMonitor } from './monitor-pause.service';
import type { MonitorsDeps } from './monitors.service';
import { assertNoFields, normaliseReason, PauseMonitorDto } from './pause.dto';
import { parseStatsQuery } from './stats.query';
import { toStatsResponse } from './stats.presenter';
import { monitorStats } from './stats.service';
import { toNoDataSpanResponse } from './no-data.repository';
import { testMonitor, toTestResultResponse } from './test-check';
import { uptimeByMonitor } from './uptime.repository';

export interface MonitorOperationsDeps extends MonitorsDeps {
  /** ALLOW_PRIVATE_TARGETS: the test check follows the same SSRF policy as the workers. */
  allowPrivateTargets: boolean;
}

/**
 * `/monitors` operations beyond CRUD (docs/monitors.md): pause/resume (≡ disable/enable), test,
 * stats, history, results, alert settings and bulk actions.
 */
export function monitorOperationsRouter(deps: MonitorOperationsDeps): Router {
  const router = Router();
  const { ds } = deps;
  const uptimeSource = { ds, redis: deps.redis, prefix: deps.scheduler.prefix };
  const monitorId = (raw: unknown): number => parseId(raw, 'monitor');

  router.post('/bulk', async (req, res) => {
    const request = await parseBulkRequest(req.body, deps);
    const outcome = await runBulk(deps, callerOf(req).id, request);
    const verb = { pause: 'paused', resume: 'resumed', delete: 'deleted', update: 'updated' }[request.action];
    sendMessage(res, `${outcome.succeeded.length} monitor(s) ${verb}, ${outcome.failed.length} failed`, outcome);
  });

  const sendMonitor = async (res: Parameters<RequestHandler>[1], message: string, monitor: Awaited<ReturnType<typeof pauseMonitor>>): Promise<void> => {
    const uptime = await uptimeByMonitor(uptimeSource, [monitor.id]);
    sendMessage(res, message, toMonitorResponse(monitor, uptime.get(monitor.id)));
  };

  const pause: RequestHandler = async (req, res) => {
    const id = monitorId(req.params.id);
    const dto = await parseInput(PauseMonitorDto, req.body ?? {});
    await sendMonitor(res, 'Monitor paused', await pauseMonitor(deps, callerOf(req).id, id, normaliseReason(dto.reason)));
  };
  const resume: RequestHandler = async (req, res) => {
    const id = monitorId(req.params.id);
    assertNoFields(req.body);
    await sendMonitor(res, 'Monitor resumed', await resumeMonitor(deps, callerOf(req).id, id));
  };
  router.post('/:id/pause', pause);
  router.post('/:id/disable', pause);
  router.post('/:id/resume', resume);
  router.post('/:id/enable', resume);

  router.post('/:id/test', async (req, res) => {
    const id = monitorId(req.params.id);
    assertNoFields(req.body);
    const result = await testMonitor(ds, callerOf(req).id, id, { allowPrivateTargets: deps.allowPrivateTargets });
    sendData(res, toTestResultResponse(result));
  });

  router.get('/:id/stats', async (req, res) => {
    const id = monitorId(req.params.id);
    const query = parseStatsQuery(req.query as Record<string, unknown>);
    sendData(res, toStatsResponse(await monitorStats(uptimeSource, callerOf(req).id, id, query)));
  });

  router.get('/:id/history', async (req, res) => {
    const id = monitorId(req.params.id);
    const query = parseHistoryQuery(req.query as Record<string, unknown>);
    const now = new Date();
    const { items, total, noData } = await monitorHistory(ds, callerOf(req).id, id, query, now);
    // One page of at most `limit`, the newest; `total` counts every check in the range. Beside
    // the checks, the time in the range when nobody checked (docs/statistics.md).
    sendList(res, items.map(toCheckResultResponse), { page: 1, limit: query.limit, total }, { no_data: noData.map((s) => toNoDataSpanResponse(s, now)) });
  });

  router.get('/:id/results', async (req, res) => {
    const id = monitorId(req.params.id);
    const page = parsePage(req.query as Record<string, unknown>, { defaultLimit: 50, maxLimit: 100 });
    const { items, total } = await monitorResults(ds, callerOf(req).id, id, page);
    sendList(res, items.map(toCheckResultResponse), { page: page.page, limit: page.limit, total });
  });

  router.get('/:id/alerts', async (req, res) => {
    sendData(res, toAlertSettingsResponse(await getAlertSettings(ds, callerOf(req).id, monitorId(req.params.id))));
  });

  router.put('/:id/alerts', async (req, res) => {
    const id = monitorId(req.params.id);
    const dto = await parseInput(AlertSettingsDto, req.body ?? {});
    sendData(res, toAlertSettingsResponse(await updateAlertSettings(deps, callerOf(req).id, id, dto)));
  });

  return router;
}
