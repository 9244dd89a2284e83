import { IsInt, IsString, Min } from 'class-validator';

/**
 * Payload of `heartbeat-ping` (on the checks queue), no longer queued: APIs before the heartbeat
 * inbox (docs/heartbeats.md, "How it is built") woke the check-worker with one per ping. The
 * check-worker completes those still in Redis; their pings are in the inbox.
 */
export class HeartbeatPingJob {
  @IsInt() @Min(1) monitorId!: number;
  /** heartbeat_pings.id, as text (a bigint); names the job. */
  @IsString() pingId!: string;
}
