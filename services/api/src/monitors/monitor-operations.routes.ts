import { Router, type RequestHandler } from 'express';
import type { SecretKeyring } from '@uptime/db';
import { callerOf, creatorOf } from '../auth/caller';
import { auditActorOf } from '../audit/audit';
import { sendData, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parseInput } from '../http/validate';
import { parseAlertSettingsPatch } from './alert-settings-input';
import { getAlertSettings, toAlertSettingsResponse, updateAlertSettings } from './alert-settings.service';
import { parseBulkRequest } from './bulk.dto';
import { parseBulkCreate, parseBulkUpdate } from './bulk-write.dto';
import { runBulk } from './bulk.service';
import { toMonitorResponse } from './monitor.presenter';
import { pauseMonitor, resumeMonitor } from './monitor-pause.service';
import { rotateHeartbeatToken } from './heartbeat.service';
import { createMonitors, updateMonitors, type MonitorsDeps } from './monitors.service';
import { assertNoFields, normaliseReason, PauseMonitorDto } from './pause.dto';
import { testMonitor } from './test-check';
import { toTestResultResponse } from './test-result.presenter';
import { uptimeByMonitor } from '../monitor-stats/uptime.repository';

export interface MonitorOperationsDeps extends MonitorsDeps {
  /** ALLOW_PRIVATE_TARGETS: the test check follows the same SSRF policy as the workers. */
  allowPrivateTargets: boolean;
  /** Seals and opens the monitor's own Slack URL and webhook key (docs/channels.md). */
  keyring: SecretKeyring;
}

/**
 * `/monitors` operations beyond CRUD (docs/monitors.md): pause/resume (≡ disable/enable), test,
 * a heartbeat's URL rotation (docs/heartbeats.md),
 * alert settings, bulk actions, and bulk create and update. Stats are monitor-stats/stats.routes.ts, history and results
 * check-results/check-results.routes.ts.
 */
export function monitorOperationsRouter(deps: MonitorOperationsDeps): Router {
  const router = Router();
  const { ds } = deps;
  const uptimeSource = { ds, redis: deps.redis, prefix: deps.scheduler.prefix };
  const monitorId = (raw: unknown): number => parseId(raw, 'monitor');

  router.post('/bulk', async (req, res) => {
    const request = await parseBulkRequest(req.body, deps);
    const outcome = await runBulk(deps, callerOf(req).organizationId, request, auditActorOf(req));
    const verb = { pause: 'paused', resume: 'resumed', delete: 'deleted', update: 'updated' }[request.action];
    sendMessage(res, `${outcome.succeeded.length} monitor(s) ${verb}, ${outcome.failed.length} failed`, outcome);
  });

  // Many monitors in one request and one transaction, all or none (docs/monitors.md, "Bulk
  // create and update"): what `uptime apply` sends (docs/config-as-code.md).
  router.post('/bulk/create', async (req, res) => {
    const dtos = await parseBulkCreate(req.body, deps);
    const monitors = await createMonitors(deps, creatorOf(req), dtos, auditActorOf(req));
    sendData(res, monitors.map((m) => toMonitorResponse(m, deps)), 201);
  });
  router.post('/bulk/update', async (req, res) => {
    const changes = await parseBulkUpdate(req.body, deps);
    const monitors = await updateMonitors(deps, callerOf(req).organizationId, changes, auditActorOf(req));
    sendData(res, monitors.map((m) => toMonitorResponse(m, deps)));
  });

  const sendMonitor = async (
    res: Parameters<RequestHandler>[1],
    message: string,
    monitor: Awaited<ReturnType<typeof pauseMonitor>>,
  ): Promise<void> => {
    const uptime = await uptimeByMonitor(uptimeSource, [monitor.id]);
    sendMessage(res, message, toMonitorResponse(monitor, deps, uptime.get(monitor.id)));
  };

  const pause: RequestHandler = async (req, res) => {
    const id = monitorId(req.params.id);
    const dto = await parseInput(PauseMonitorDto, req.body ?? {});
    await sendMonitor(
      res,
      'Monitor paused',
      await pauseMonitor(deps, callerOf(req).organizationId, id, normaliseReason(dto.reason), auditActorOf(req)),
    );
  };
  const resume: RequestHandler = async (req, res) => {
    const id = monitorId(req.params.id);
    assertNoFields(req.body);
    await sendMonitor(res, 'Monitor resumed', await resumeMonitor(deps, callerOf(req).organizationId, id, auditActorOf(req)));
  };
  router.post('/:id/pause', pause);
  router.post('/:id/disable', pause);
  router.post('/:id/resume', resume);
  router.post('/:id/enable', resume);

  router.post('/:id/heartbeat/rotate', async (req, res) => {
    const id = monitorId(req.params.id);
    assertNoFields(req.body);
    await sendMonitor(res, 'Heartbeat URL rotated', await rotateHeartbeatToken(deps, callerOf(req).organizationId, id, auditActorOf(req)));
  });

  router.post('/:id/test', async (req, res) => {
    const id = monitorId(req.params.id);
    assertNoFields(req.body);
    const result = await testMonitor(
      ds,
      callerOf(req).organizationId,
      id,
      { allowPrivateTargets: deps.allowPrivateTargets },
      auditActorOf(req),
    );
    sendData(res, toTestResultResponse(result));
  });

  router.get('/:id/alerts', async (req, res) => {
    sendData(res, toAlertSettingsResponse(await getAlertSettings(ds, deps.keyring, callerOf(req).organizationId, monitorId(req.params.id))));
  });

  router.put('/:id/alerts', async (req, res) => {
    const id = monitorId(req.params.id);
    const input = await parseAlertSettingsPatch(req.body, deps);
    sendData(res, toAlertSettingsResponse(await updateAlertSettings(ds, deps.keyring, callerOf(req).organizationId, id, input, auditActorOf(req))));
  });

  return router;
}
