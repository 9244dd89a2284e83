import type { Redis } from 'ioredis';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { publishLiveEvents } from '@uptime/queues';
import { organizationOfMonitor } from './live.repository';

/** Where the notifier tells open pages about new notifications (docs/web.md, "Live updates"). */
export interface LiveNotificationsTarget {
  redis: Redis;
  prefix: string;
}

/**
 * Publishes the notifications just recorded for a monitor to its organization's live channel.
 * Best effort, after their transaction: a lost message only leaves a page to its next event.
 */
export async function publishLiveNotifications(
  target: LiveNotificationsTarget,
  ds: DataSource,
  monitorId: number,
  recorded: readonly { id: number; type: string }[],
  log: Logger,
): Promise<void> {
  if (recorded.length === 0) return;
  try {
    const organizationId = await organizationOfMonitor(ds, monitorId);
    if (organizationId === null) return;
    const events = recorded.map((n) => ({ type: 'notification' as const, monitor_id: monitorId, notification_id: n.id, notification_type: n.type }));
    await publishLiveEvents(target.redis, target.prefix, new Map([[organizationId, events]]));
  } catch (err) {
    log.debug({ err }, 'live notifications not published');
  }
}
