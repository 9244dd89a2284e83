import type { DataSource } from '@uptime/db';
import { ConflictError, ServiceUnavailableError } from '@uptime/errors';
import { IcmpUnavailableError, isProbedType, runProbe, type ProbeResult } from '@uptime/probe';
import { checkConfigOf } from '@uptime/queues';
import { getMonitor } from './monitors.service';
import { recordAudit, type AuditActor } from '../audit/audit';

/**
 * POST /monitors/{id}/test: one check now, through the probe the check-workers use, with the
 * same SSRF policy. A dry run: nothing is recorded and the status does not move. A paused
 * monitor can be tested too (that is how one checks a fix before resuming). It changes nothing,
 * but calls out to the target, so the audit log records who asked (docs/audit-log.md). A
 * heartbeat has nothing to probe: 409 INVALID_STATE (docs/heartbeats.md).
 */
export async function testMonitor(
  ds: DataSource,
  organizationId: number,
  id: number,
  options: { allowPrivateTargets: boolean },
  actor: AuditActor,
): Promise<ProbeResult> {
  const monitor = await getMonitor(ds, organizationId, id);
  if (!isProbedType(monitor.type)) throw new ConflictError('INVALID_STATE', `Monitor ${id} is a ${monitor.type} monitor: it has no probe, it is up while its pings arrive on time`);
  await ds.transaction((em) => recordAudit(em, { organizationId, actor, action: 'monitor.test', resourceId: id }));
  // This server's failure, not the target's: a ping test where the api may not send ICMP is a 503 (docs/operations.md, "ICMP ping").
  return runProbe(checkConfigOf(monitor), { allowPrivateTargets: options.allowPrivateTargets }).catch((error: unknown) => {
    throw error instanceof IcmpUnavailableError ? new ServiceUnavailableError(error.message) : error;
  });
}
