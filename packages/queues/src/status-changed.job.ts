import { IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { MONITOR_STATUSES, type MonitorStatus } from '@uptime/db';

/** Payload of `status-changed`: one row of the status_events outbox. */
export class StatusChangedJob {
  /** status_events.id; also the job id, so a re-publish cannot enqueue it twice. */
  @IsString() eventId!: string;
  @IsInt() @Min(1) monitorId!: number;
  @IsIn(MONITOR_STATUSES) from!: MonitorStatus;
  @IsIn(MONITOR_STATUSES) to!: MonitorStatus;
  /** The incident opened (to offline) or closed (to online) by this change. */
  @IsOptional() @IsInt() incidentId?: number | null;
  @IsOptional() @IsString() checkResultId?: string | null;
}

export const statusChangedJobId = (eventId: string): string => `status-event-${eventId}`;
