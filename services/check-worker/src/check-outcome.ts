import type { MonitorType, ProbeResult } from '@uptime/probe';
import type { LocationOutcome } from './location-vote';

/**
 * A finished check waiting to be recorded. Not in record-check-batch.ts, which records it: the
 * processor, the backlog, its codec and the batch's SQL take one too, and recordCheckBatch()
 * calls the last three, so defined there it made them import each other.
 */
export interface CheckOutcome {
  monitorId: number;
  configVersion: number;
  /** The time the schedule planned this check for; identifies it (a redelivery is a no-op). */
  scheduledAt: Date;
  /** The monitor's type, for the metrics (absent: http, as in a backlog written before other types). */
  type?: MonitorType;
  /** The check's result; with several locations, the majority's (docs/agent-protocol.md). */
  result: ProbeResult;
  /** Each location's result, when the check also ran through agents; absent for a plain check. */
  locations?: readonly LocationOutcome[];
}
