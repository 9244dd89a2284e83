import { IsInt, IsString, Min } from 'class-validator';

/**
 * Payload of `heartbeat-ping` (on the checks queue): a ping was recorded for a heartbeat monitor
 * (services/api/src/heartbeats/). The check-worker reads the monitor's unprocessed pings from
 * Postgres and steps its state (services/check-worker/src/heartbeat/): the job only wakes it, so
 * one lost or repeated changes nothing but when that happens.
 */
export class HeartbeatPingJob {
  @IsInt() @Min(1) monitorId!: number;
  /** heartbeat_pings.id, as text (a bigint); names the job. */
  @IsString() pingId!: string;
}
