import type { Redis } from 'ioredis';
import type { MonitorStatus } from '@uptime/db';

/**
 * Live updates (docs/web.md, "Live updates"): what the check-worker and the notifier publish on
 * Redis pub/sub as it happens, one channel per organization, and every api replica relays to the
 * Server-Sent Events streams open in that organization. Pub/sub keeps nothing: a replica that is
 * not subscribed misses the message, and the web app reloads what it shows when its stream opens.
 */

/** The channel of one organization's live updates. */
export const liveChannel = (prefix: string, organizationId: number): string => `${prefix}:live:org:${organizationId}`;

/**
 * How many of a dns check's answer values a bead carries, live and from GET /monitors/recent-checks:
 * its figure, not its whole answer (GET /monitors/{id}/results has that).
 */
export const BEAD_DNS_ANSWERS = 3;

/** A check just recorded, and the state of its monitor after it. */
export interface LiveCheck {
  monitor_id: number;
  checked_at: string;
  result: 'up' | 'down';
  /** Milliseconds; null when no answer came. */
  response_time: number | null;
  /**
   * The status code and why the check failed, as the check's result stores them: what a bead's
   * tooltip says (docs/web.md, "Beads"). Absent from a check-worker older than them, still
   * running during an upgrade.
   */
  status_code?: number | null;
  error?: string | null;
  /** Its type's figure, as GET /monitors/recent-checks has it: a ping's packet loss, a dns check's first answer values. */
  packet_loss?: number | null;
  dns_answers?: string[] | null;
  monitor_status: MonitorStatus;
  in_maintenance: boolean;
}

/** What a stream says: the checks of one recorded batch, a status change, a notification recorded. */
export type LiveEvent =
  | { type: 'checks'; checks: LiveCheck[] }
  | { type: 'status'; monitor_id: number; from: MonitorStatus; to: MonitorStatus }
  | { type: 'notification'; monitor_id: number; notification_id: number; notification_type: string };

export const LIVE_EVENT_TYPES = ['checks', 'status', 'notification'] as const satisfies readonly LiveEvent['type'][];

/** Publishes each organization's events in one round trip; an organization without a listener costs one PUBLISH. */
export async function publishLiveEvents(redis: Redis, prefix: string, byOrganization: ReadonlyMap<number, readonly LiveEvent[]>): Promise<void> {
  if (byOrganization.size === 0) return;
  const pipeline = redis.pipeline();
  for (const [organizationId, events] of byOrganization) {
    for (const event of events) pipeline.publish(liveChannel(prefix, organizationId), JSON.stringify(event));
  }
  await pipeline.exec();
}
