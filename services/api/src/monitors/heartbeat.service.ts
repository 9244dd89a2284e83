import type { DataSource, Monitor } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import { nextDueAfter, type HeartbeatSchedule } from '@uptime/probe';
import type { MonitorFieldsDto } from './monitor-fields.dto';
import { recordAudit, type AuditActor } from '../audit/audit';
import { newHeartbeatToken } from './heartbeat-token';
import { lockOwnMonitor, writeHeartbeatColumns, type HeartbeatColumns } from './monitors.repository';

/**
 * `POST /monitors/{id}/heartbeat/rotate` (docs/heartbeats.md): a new ping token; the old URL
 * answers 404 from the commit on. Only a heartbeat monitor has one (409 INVALID_STATE otherwise).
 */
export async function rotateHeartbeatToken(deps: { ds: DataSource }, organizationId: number, id: number, actor: AuditActor): Promise<Monitor> {
  return deps.ds.transaction(async (em) => {
    const monitor = await lockOwnMonitor(em, organizationId, id);
    if (monitor.type !== 'heartbeat') throw new ConflictError('INVALID_STATE', `Monitor ${id} is a ${monitor.type} monitor: only a heartbeat monitor has a ping URL`);
    const rotated = await writeHeartbeatColumns(em, monitor, { heartbeatToken: newHeartbeatToken() });
    await recordAudit(em, { organizationId, actor, action: 'monitor.heartbeat_rotate', resourceId: id, changedFields: ['heartbeat_url'] });
    return rotated;
  });
}

const scheduleOf = (m: Monitor): HeartbeatSchedule =>
  m.heartbeatCron ? { cron: m.heartbeatCron, timezone: m.heartbeatTimezone } : { period: m.heartbeatPeriod ?? 0 };

/** A new heartbeat: its token, and its first ping due one period (or at the first cron time) from now. */
export function newHeartbeatColumns(m: Monitor, now = new Date()): HeartbeatColumns {
  return { heartbeatToken: newHeartbeatToken(), heartbeatDueAt: nextDueAfter(scheduleOf(m), now) };
}

/** A resumed heartbeat waits for its first ping as a new one does: no start open, due from now. */
export function resumedHeartbeatColumns(m: Monitor, now = new Date()): HeartbeatColumns {
  return { heartbeatDueAt: nextDueAfter(scheduleOf(m), now), heartbeatStartedAt: null, heartbeatWaitingSince: now };
}

/**
 * After an update, the next ping is due by the new schedule from the last success. A heartbeat
 * still waiting for its first keeps counting from its creation (or resume), not from the edit:
 * editing the schedule again and again must not put its first deadline off for ever
 * (docs/heartbeats.md). Nothing is due for one offline since its last miss or failure, until its
 * next success.
 */
export function updatedHeartbeatColumns(m: Monitor, dto: MonitorFieldsDto, now = new Date()): HeartbeatColumns {
  const scheduleChanged = dto.heartbeat_period !== undefined || dto.heartbeat_cron !== undefined || dto.heartbeat_timezone !== undefined;
  if (m.type !== 'heartbeat' || !scheduleChanged || m.heartbeatDueAt === null) return {};
  return { heartbeatDueAt: nextDueAfter(scheduleOf(m), m.status === 'pending' ? (m.heartbeatWaitingSince ?? m.createdAt) : (m.lastSuccess ?? now)) };
}
