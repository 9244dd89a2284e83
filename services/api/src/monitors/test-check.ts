import type { DataSource } from '@uptime/db';
import { runProbe, type ProbeResult } from '@uptime/probe';
import { checkConfigOf } from '@uptime/queues';
import { getMonitor } from './monitors.service';

/**
 * POST /monitors/{id}/test: one check now, through the probe the check-workers use, with the
 * same SSRF policy. A dry run: nothing is recorded and the status does not move. A paused
 * monitor can be tested too (that is how one checks a fix before resuming).
 */
export async function testMonitor(ds: DataSource, ownerId: number, id: number, options: { allowPrivateTargets: boolean }): Promise<ProbeResult> {
  const monitor = await getMonitor(ds, ownerId, id);
  return runProbe(checkConfigOf(monitor), { allowPrivateTargets: options.allowPrivateTargets });
}

/** The answer of POST /monitors/{id}/test: one dry-run check (docs/monitors.md, Other operations). */
export function toTestResultResponse(r: ProbeResult) {
  return {
    status: r.ok ? ('up' as const) : ('down' as const),
    response_time: r.responseTime,
    status_code: r.statusCode,
    checked_at: r.checkedAt.toISOString(),
    error: r.error,
    timings: {
      dns: r.timings?.dns ?? null,
      connect: r.timings?.connect ?? null,
      tls: r.timings?.tls ?? null,
      first_byte: r.timings?.firstByte ?? null,
      total: r.responseTime,
    },
  };
}
