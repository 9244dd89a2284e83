import { Router, type RequestHandler } from 'express';
import { ValidationError } from '@uptime/errors';
import { callerOf } from '../auth/caller';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseInput } from '../http/validate';
import { parseMonitorFilters } from './list-monitors.query';
import { MonitorFieldsDto } from './monitor-fields.dto';
import { toMonitorResponse } from './monitor.presenter';
import { upcomingMaintenance } from '../maintenance-windows/maintenance-windows.service';
import { assertMonitorType } from './monitor-type';
import { createMonitor, deleteMonitor, getMonitor, listMonitors, updateMonitor, type MonitorsDeps } from './monitors.service';
import { uptimeByMonitor } from './uptime.repository';

const REQUIRED_ON_CREATE = ['name', 'url', 'type'] as const;

const isJsonObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object' && !Array.isArray(body);

/**
 * Validates a create body: a present but unsupported type first (INVALID_MONITOR_TYPE,
 * docs/monitors.md), then every field and every missing required field together, so one answer names all of
 * them (a missing type is one of them, as a VALIDATION_ERROR).
 */
async function parseCreateBody(body: unknown): Promise<MonitorFieldsDto> {
  if (!isJsonObject(body)) return parseInput(MonitorFieldsDto, body);
  assertMonitorType(body);
  const missing: Record<string, string[]> = Object.fromEntries(
    REQUIRED_ON_CREATE.filter((f) => body[f] === undefined).map((f) => [f, [`${f} is required`]]),
  );
  let invalid: Record<string, string[]> = {};
  let dto: MonitorFieldsDto | undefined;
  try {
    dto = await parseInput(MonitorFieldsDto, body);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    invalid = (err.details ?? {}) as Record<string, string[]>;
  }
  const details = { ...invalid, ...missing };
  if (!dto || Object.keys(details).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(details).join(', ')}`, details);
  return dto;
}

async function parseUpdateBody(body: unknown): Promise<MonitorFieldsDto> {
  if (isJsonObject(body)) assertMonitorType(body);
  return parseInput(MonitorFieldsDto, body);
}

export function monitorsRouter(deps: MonitorsDeps): Router {
  const router = Router();
  const { ds } = deps;
  const uptimeSource = { ds, redis: deps.redis, prefix: deps.scheduler.prefix };

  router.get('/', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const page = parsePage(query, { defaultLimit: 25, maxLimit: 100 });
    const filters = parseMonitorFilters(query);
    const { items, total } = await listMonitors(ds, callerOf(req).id, filters, page);
    const uptime = await uptimeByMonitor(
      uptimeSource,
      items.map((m) => m.id),
    );
    sendList(
      res,
      items.map((m) => toMonitorResponse(m, uptime.get(m.id))),
      { page: page.page, limit: page.limit, total },
    );
  });

  router.post('/', async (req, res) => {
    const dto = await parseCreateBody(req.body);
    const monitor = await createMonitor(deps, callerOf(req).id, dto);
    sendData(res, toMonitorResponse(monitor), 201);
  });

  router.get('/:id', async (req, res) => {
    const monitor = await getMonitor(ds, callerOf(req).id, parseId(req.params.id, 'monitor'));
    const [uptime, maintenance] = await Promise.all([uptimeByMonitor(uptimeSource, [monitor.id]), upcomingMaintenance(ds, monitor.id)]);
    sendData(res, { ...toMonitorResponse(monitor, uptime.get(monitor.id)), maintenance });
  });

  const update: RequestHandler = async (req, res) => {
    const id = parseId(req.params.id, 'monitor');
    const dto = await parseUpdateBody(req.body ?? {});
    const monitor = await updateMonitor(deps, callerOf(req).id, id, dto);
    const uptime = await uptimeByMonitor(uptimeSource, [monitor.id]);
    sendData(res, toMonitorResponse(monitor, uptime.get(monitor.id)));
  };
  router.put('/:id', update);
  router.patch('/:id', update);

  router.delete('/:id', async (req, res) => {
    await deleteMonitor(deps, callerOf(req).id, parseId(req.params.id, 'monitor'));
    sendMessage(res, 'Monitor deleted');
  });

  return router;
}
