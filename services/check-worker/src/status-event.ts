import type { MonitorStatus } from '@uptime/db';

/**
 * A row of the status_events outbox, to publish after commit. Not in record-check-batch.ts, which
 * makes it: the outbox's SQL (status-event.repository.ts), which recordCheckBatch() calls, and
 * the publisher take one too.
 */
export interface StatusEvent {
  id: string;
  monitorId: number;
  from: MonitorStatus;
  to: MonitorStatus;
  incidentId: number | null;
  checkResultId: string | null;
  /** The alert episodes the step opened or closed (alert-episodes.ts). */
  episodeIds: number[];
}
