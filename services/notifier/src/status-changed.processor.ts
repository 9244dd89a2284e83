import type { ServiceMetrics } from '@uptime/observability';
import { parseJob, StatusChangedJob } from '@uptime/queues';
import { alertRef, type AlertRef } from './alert';
import { createDeliveryDeps, type DeliveryOptions } from './deliveries/delivery-deps';
import { notifyAlert } from './notify-alert';
import { openDraftIncidents } from './page-events/draft-incidents.repository';
import type { LiveNotificationsTarget } from './live-notifications';

export interface StatusChangedProcessorDeps extends DeliveryOptions {
  /** How long a job waits for emails another notifier is sending before it is retried; default 20 s. */
  inFlightWaitMs?: number;
  /** Counts notifications created (`notifications_created_total{type}`) and deliveries. */
  metrics?: DeliveryOptions['metrics'] & Pick<ServiceMetrics, 'notificationsCreated'>;
  /** Where open pages hear of new notifications (docs/web.md, "Live updates"). */
  live?: LiveNotificationsTarget;
}

/** The part of a BullMQ job the processor reads; a `Job` fits. */
export interface QueuedJob {
  id?: string;
  data: unknown;
}

export type StatusChangedProcessor = (job: QueuedJob) => Promise<void>;

/**
 * The alerts a status event names: the incident its step opened or closed, then the alert
 * episodes. Only the check-worker writes events, and an event names an incident exactly when its
 * step opened or closed one (record-check-batch.ts): to offline, or back from a downtime to online,
 * to warning when that first success is slow (docs/alert-rules.md), or after a resume.
 */
const alertsOf = (event: StatusChangedJob): AlertRef[] => [
  ...(event.incidentId != null ? [alertRef(event.incidentId)] : []),
  ...(event.episodeIds ?? []).map(alertRef),
];

/**
 * Handles `status-changed`: a monitor gone offline first gets its draft incidents on the pages
 * that ask for them (docs/status-pages.md, "Draft incidents"; written once however often the
 * event comes); then every alert the event names, of whatever kind, goes the same way
 * (notify-alert.ts), one after the other, the downtime first. An event that names none (a change
 * to pending, or to warning with no alert) notifies nobody and completes at once.
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
    if (event.to === 'offline' && event.incidentId != null) {
      const drafts = await openDraftIncidents(deps.dataSource, event.monitorId, event.incidentId);
      if (drafts.length > 0) log.info({ status_page_incident_ids: drafts }, 'draft incidents opened');
    }
    for (const ref of alertsOf(event)) await notifyAlert({ ...deps, delivery }, ref, event.monitorId, log);
  };
}
