import type { Monitor } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import { recordAudit, type AuditActor } from '../audit/audit';
import { newHeartbeatToken } from './heartbeat-token';
import { lockOwnMonitor, writeHeartbeatToken } from './monitors.repository';
import type { MonitorsDeps } from './monitors.service';

/**
 * `POST /monitors/{id}/heartbeat/rotate` (docs/heartbeats.md): a new ping token; the old URL
 * answers 404 from the commit on. Only a heartbeat monitor has one (409 INVALID_STATE otherwise).
 */
export async function rotateHeartbeatToken(deps: Pick<MonitorsDeps, 'ds'>, organizationId: number, id: number, actor: AuditActor): Promise<Monitor> {
  return deps.ds.transaction(async (em) => {
    const monitor = await lockOwnMonitor(em, organizationId, id);
    if (monitor.type !== 'heartbeat') throw new ConflictError('INVALID_STATE', `Monitor ${id} is a ${monitor.type} monitor: only a heartbeat monitor has a ping URL`);
    const rotated = await writeHeartbeatToken(em, monitor, newHeartbeatToken());
    await recordAudit(em, { organizationId, actor, action: 'monitor.heartbeat_rotate', resourceId: id, changedFields: ['heartbeat_url'] });
    return rotated;
  });
}
