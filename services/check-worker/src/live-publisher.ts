import type { Redis } from 'ioredis';
import { storedCheckError, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { BEAD_DNS_ANSWERS, publishLiveEvents, type LiveEvent } from '@uptime/queues';
import type { CheckOutcome } from './check-outcome';
import type { StatusEvent } from './status-event';
import { readMonitorsNow } from './live.repository';

/**
 * Tells the organizations' open pages about a batch just committed (docs/web.md, "Live
 * updates"): each check (its result, status code and error as stored) with its monitor's state
 * now, and each status change. One read of the monitors (their organization and state after the
 * batch) and one pipeline of PUBLISH per batch.
 * Best effort: a lost message costs a page its freshness until its next event, never data.
 */
export class LivePublisher {
  constructor(
    private readonly ds: DataSource,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  async publish(outcomes: readonly CheckOutcome[], events: readonly StatusEvent[]): Promise<void> {
    const ids = [...new Set(outcomes.map((o) => o.monitorId))];
    if (ids.length === 0) return;
    const monitors = new Map((await readMonitorsNow(this.ds, ids)).map((r) => [r.id, r]));
    const byOrganization = new Map<number, LiveEvent[]>();
    const eventsOf = (organizationId: number): LiveEvent[] => {
      let list = byOrganization.get(organizationId);
      if (!list) byOrganization.set(organizationId, (list = []));
      return list;
    };
    const checks = new Map<number, Extract<LiveEvent, { type: 'checks' }>>();
    for (const o of outcomes) {
      const m = monitors.get(o.monitorId);
      // A deleted or paused monitor's check was dropped by the batch.
      if (!m || m.status === 'paused') continue;
      let batch = checks.get(m.organization_id);
      if (!batch) {
        batch = { type: 'checks', checks: [] };
        checks.set(m.organization_id, batch);
        eventsOf(m.organization_id).push(batch);
      }
      batch.checks.push({
        monitor_id: m.id,
        checked_at: o.result.checkedAt.toISOString(),
        result: o.result.ok ? 'up' : 'down',
        response_time: o.result.responseTime,
        status_code: o.result.statusCode,
        error: storedCheckError(o.result.error),
        packet_loss: o.result.ping?.packetLoss ?? null,
        dns_answers: o.result.dns ? o.result.dns.values.slice(0, BEAD_DNS_ANSWERS) : null,
        monitor_status: m.status,
        in_maintenance: m.in_maintenance,
      });
    }
    for (const e of events) {
      const m = monitors.get(e.monitorId);
      if (m && e.from !== e.to) eventsOf(m.organization_id).push({ type: 'status', monitor_id: e.monitorId, from: e.from, to: e.to });
    }
    await publishLiveEvents(this.redis, this.prefix, byOrganization);
  }

  /** Publishes, logging instead of failing: the batch is committed whatever happens here. */
  publishQuietly(outcomes: readonly CheckOutcome[], events: readonly StatusEvent[]): Promise<void> {
    return this.publish(outcomes, events).catch((err: unknown) => this.logger.debug({ err }, 'live updates not published'));
  }
}
