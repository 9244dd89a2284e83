import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { MONITOR_STATUSES, type MonitorStatus } from '@uptime/db';

/** Payload of `status-changed`: one row of the status_events outbox (a step that changed the status, or opened or closed an incident or alert episode). */
export class StatusChangedJob {
  /** status_events.id; also the job id, so a re-publish cannot enqueue it twice. */
  @IsString() eventId!: string;
  @IsInt() @Min(1) monitorId!: number;
  @IsIn(MONITOR_STATUSES) from!: MonitorStatus;
  @IsIn(MONITOR_STATUSES) to!: MonitorStatus;
  /** The incident opened (to offline) or closed (to online) by this change. */
  @IsOptional() @IsInt() incidentId?: number | null;
  @IsOptional() @IsString() checkResultId?: string | null;
  /**
   * The alert episodes (slow, certificate) this step opened or closed (docs/alert-rules.md); absent
   * in events written before there were any. A step touches at most a slow and two certificate ones.
   */
  @IsOptional() @IsArray() @ArrayMaxSize(4) @IsInt({ each: true }) @Min(1, { each: true }) episodeIds?: number[];
}

export const statusChangedJobId = (eventId: string): string => `status-event-${eventId}`;

/**
 * Whether a status event names an alert (a downtime opened or closed, an alert episode): the only
 * events the notifier acts on (services/notifier/src/status-changed.processor.ts, alertsOf), and
 * the only ones the status-changes queue carries. An event that names none (a first success,
 * pending to online; a failure below the threshold, to warning; a miss in a maintenance window)
 * notifies nobody: the outbox writes it already published (docs/notifications.md, "Status events
 * that notify nobody").
 */
export const namesAlert = (event: { incidentId?: number | null; episodeIds?: readonly number[] | null }): boolean =>
  event.incidentId != null || (event.episodeIds?.length ?? 0) > 0;
