import { DomainError, type ErrorCode } from '@uptime/errors';
import type { BulkRequest } from './bulk.dto';
import { pauseMonitor, resumeMonitor } from './monitor-pause.service';
import { deleteMonitor, updateMonitor, type MonitorsDeps } from './monitors.service';
import { normaliseReason } from './pause.dto';
import type { AuditActor } from '../audit/audit';

export interface BulkOutcome {
  succeeded: number[];
  failed: { id: number; error: { code: ErrorCode; message: string } }[];
}

/**
 * Applies one action to each monitor in turn, each in its own transaction, so one monitor's
 * failure (missing, another user's: both MONITOR_NOT_FOUND) leaves the others done. A failure of
 * our own (Postgres, Redis) is not the monitor's fault: it aborts the request with 503/500, and a
 * retry is safe since every action is idempotent. Each monitor done gets its own audit entry, the
 * same as its single-monitor route's, in its transaction (docs/audit-log.md).
 */
export async function runBulk(deps: MonitorsDeps, organizationId: number, request: BulkRequest, actor: AuditActor): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { succeeded: [], failed: [] };
  const reason = normaliseReason(request.reason);
  for (const id of request.monitorIds) {
    try {
      if (request.action === 'pause') await pauseMonitor(deps, organizationId, id, reason, actor);
      else if (request.action === 'resume') await resumeMonitor(deps, organizationId, id, actor);
      else if (request.action === 'delete') await deleteMonitor(deps, organizationId, id, actor);
      else await updateMonitor(deps, organizationId, id, request.settings!, actor);
      outcome.succeeded.push(id);
    } catch (err) {
      if (!(err instanceof DomainError) || err.status >= 500) throw err;
      outcome.failed.push({ id, error: { code: err.code, message: err.message } });
    }
  }
  return outcome;
}
