import { UnrecoverableError } from 'bullmq';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { parseJob, StatusChangedJob } from '@uptime/queues';
import { createDeliveryDeps, type DeliveryOptions } from './deliveries/delivery-deps';
import { deliverIncident } from './deliveries/deliver-incident';
import { loadIncidentContext } from './incident.repository';
import { notifyEpisode } from './notify-episode';
import { recordIncidentNotifications } from './notification.repository';

export interface StatusChangedProcessorDeps extends DeliveryOptions {
  /** How long a job waits for emails another notifier is sending before it is retried; default 20 s. */
  inFlightWaitMs?: number;
  /** Counts notifications created (`notifications_created_total{type}`) and deliveries. */
  metrics?: DeliveryOptions['metrics'] & Pick<ServiceMetrics, 'notificationsCreated'>;
}

/** The part of a BullMQ job the processor reads; a `Job` fits. */
export interface QueuedJob {
  id?: string;
  data: unknown;
}

export type StatusChangedProcessor = (job: QueuedJob) => Promise<void>;

/**
 * Handles `status-changed`: a change to offline or to online carries the incident it opened or
 * closed, and both lead to the same reconciliation of that incident's notifications and deliveries,
 * so duplicates, retries, concurrent notifiers and out-of-order events all end in one state.
 * The alert episodes (slow, certificate) a step opened or closed are reconciled the same way, after
 * the incident (notify-episode.ts). Other changes notify nobody and complete at once.
 */
export function createStatusChangedProcessor(deps: StatusChangedProcessorDeps): StatusChangedProcessor {
  const delivery = {
    ...createDeliveryDeps(deps),
    inFlightWaitMs: deps.inFlightWaitMs ?? 20_000,
    pollIntervalMs: 100,
  };

  return async (job) => {
    const event = parseJob(StatusChangedJob, job.data);
    const log = deps.logger.child({ job_id: job.id, event_id: event.eventId, monitor_id: event.monitorId });
    // Only the check-worker writes events, and an event names an incident exactly when its step
    // opened or closed one (record-check-batch.ts): to offline, or back from a downtime to online,
    // to warning when that first success is slow (docs/alert-rules.md), or after a resume.
    if (event.incidentId != null) await notifyIncident({ ...event, incidentId: event.incidentId }, log);
    // The alert episodes (slow, certificate) the step opened or closed, after its incident.
    for (const episodeId of event.episodeIds ?? []) await notifyEpisode({ ...deps, delivery }, { episodeId, monitorId: event.monitorId }, log);
  };

  async function notifyIncident(event: { incidentId: number; monitorId: number }, log: Logger): Promise<void> {
    const ctx = await loadIncidentContext(deps.dataSource.manager, event.incidentId);
    if (!ctx) {
      // Deleting a monitor deletes its incidents: nobody is left to notify.
      log.info({ incidentId: event.incidentId }, 'incident no longer exists; nothing to notify');
      return;
    }
    if (ctx.monitorId !== event.monitorId) {
      throw new UnrecoverableError(`incident ${ctx.incidentId} belongs to monitor ${ctx.monitorId}, not ${event.monitorId}`);
    }

    const recorded = await recordIncidentNotifications(deps.dataSource, ctx);
    if (recorded.downtimeId !== null) deps.metrics?.notificationsCreated.inc({ type: 'downtime' });
    if (recorded.recoveryId !== null) deps.metrics?.notificationsCreated.inc({ type: 'recovery' });
    if (recorded.downtimeId !== null || recorded.recoveryId !== null) {
      log.info({ incidentId: ctx.incidentId, ...recorded }, 'notifications recorded');
    }
    await deliverIncident(delivery, ctx);
  }
}
