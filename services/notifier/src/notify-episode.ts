import { UnrecoverableError } from 'bullmq';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { deliverIncident, type DeliverIncidentDeps } from './deliveries/deliver-incident';
import { loadEpisodeContext } from './episode.repository';
import { recordEpisodeNotifications } from './episode-notification.repository';

export interface NotifyEpisodeDeps {
  dataSource: DataSource;
  delivery: DeliverIncidentDeps;
  metrics?: Pick<ServiceMetrics, 'notificationsCreated'>;
}

/**
 * The part of a `status-changed` event about one alert episode it opened or closed: records (or
 * resolves) the episode's notification, then sends what is due, as an incident's are
 * (docs/notifications.md). Idempotent: a redelivered event finds everything done.
 */
export async function notifyEpisode(deps: NotifyEpisodeDeps, event: { episodeId: number; monitorId: number }, log: Logger): Promise<void> {
  const ctx = await loadEpisodeContext(deps.dataSource.manager, event.episodeId);
  if (!ctx) {
    // Deleting a monitor deletes its episodes: nobody is left to notify.
    log.info({ episodeId: event.episodeId }, 'alert episode no longer exists; nothing to notify');
    return;
  }
  if (ctx.monitorId !== event.monitorId) {
    throw new UnrecoverableError(`alert episode ${ctx.episodeId} belongs to monitor ${ctx.monitorId}, not ${event.monitorId}`);
  }
  const recorded = await recordEpisodeNotifications(deps.dataSource, ctx);
  if (recorded.createdId !== null) {
    deps.metrics?.notificationsCreated.inc({ type: ctx.kind });
    log.info({ episodeId: ctx.episodeId, kind: ctx.kind, ...recorded }, 'notifications recorded');
  }
  await deliverIncident(deps.delivery, ctx);
}
