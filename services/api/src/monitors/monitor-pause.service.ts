import type { Monitor } from '@uptime/db';
import { lockOwnMonitor, saveMonitor, writeHeartbeatColumns } from './monitors.repository';
import { resumedHeartbeatColumns } from './heartbeat.service';
import type { MonitorsDeps } from './monitors.service';
import { recordAudit, type AuditActor } from '../audit/audit';

/**
 * Pauses (≡ disables) a monitor: status `paused`, `paused_at`, `pause_reason`, and its schedule
 * removed (docs/monitors.md). Results of checks still in flight are dropped by the recorder, which
 * reads the status under the same row lock. An open downtime stays open, so a resume followed by
 * a success still ends it with one recovery.
 *
 * Pausing a paused monitor answers it unchanged (the first `paused_at` stays), except that a
 * given reason replaces the old one.
 */
export async function pauseMonitor(
  deps: MonitorsDeps,
  organizationId: number,
  id: number,
  reason: string | null | undefined,
  actor: AuditActor,
): Promise<Monitor> {
  return deps.ds.transaction(async (em) => {
    const monitor = await lockOwnMonitor(em, organizationId, id);
    if (monitor.status === 'paused') {
      if (reason !== undefined && reason !== monitor.pauseReason) {
        monitor.pauseReason = reason;
        await saveMonitor(em, monitor);
      }
    } else {
      monitor.status = 'paused';
      monitor.pausedAt = new Date();
      monitor.pauseReason = reason ?? null;
      await saveMonitor(em, monitor);
    }
    await recordAudit(em, {
      organizationId,
      actor,
      action: 'monitor.pause',
      resourceId: id,
      changedFields: reason === undefined ? [] : ['reason'],
    });
    // Before commit, like every schedule change: a Redis failure rolls the pause back.
    await deps.scheduler.unschedule(monitor.id);
    return monitor;
  });
}

/**
 * Resumes (≡ enables) a paused monitor: status `pending` with a fresh failure count, scheduled
 * again and checked at once (docs/monitors.md). Resuming a monitor that is not paused changes nothing
 * and answers it as it is.
 */
export async function resumeMonitor(deps: MonitorsDeps, organizationId: number, id: number, actor: AuditActor): Promise<Monitor> {
  let resumed = false;
  const monitor = await deps.ds.transaction(async (em) => {
    const locked = await lockOwnMonitor(em, organizationId, id);
    // Recorded even when already running: the log says who asked, not only what moved.
    await recordAudit(em, { organizationId, actor, action: 'monitor.resume', resourceId: id });
    if (locked.status !== 'paused') return locked;
    locked.status = 'pending';
    locked.pausedAt = null;
    locked.pauseReason = null;
    locked.consecutiveFailures = 0;
    const paused = await saveMonitor(em, locked);
    const saved = locked.type === 'heartbeat' ? await writeHeartbeatColumns(em, paused, resumedHeartbeatColumns(paused)) : paused;
    await deps.scheduler.schedule(saved);
    resumed = true;
    return saved;
  });
  // After the commit, like a new monitor's first check: queued earlier, a fast worker would still
  // see the monitor paused and drop the result.
  if (resumed) await deps.scheduler.checkNow(monitor);
  return monitor;
}
