import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, Min } from 'class-validator';
import type { CompactCheckConfig } from './compact-check';

/** Payload of `run-check`: the monitor and the configuration to probe it with. */
export class RunCheckJob {
  @IsInt() @Min(1) monitorId!: number;
  /** The monitor's config_version the template was built from. */
  @IsInt() @Min(1) configVersion!: number;
  /** Fields at their usual value are left out (compact-check.ts): read it through `expandCheck`. */
  @IsObject() check!: CompactCheckConfig;
  /**
   * Agents the check also runs through (docs/agent-protocol.md), by id: the worker looks up their URL and
   * secret itself, so no secret travels in a job. Absent for a monitor without agents.
   */
  @IsOptional() @IsArray() @ArrayMaxSize(100) @IsInt({ each: true }) @Min(1, { each: true }) agentIds?: number[];
}

/**
 * Scheduler ids derive from the monitor id, so an upsert replaces a monitor's single schedule.
 * No ':' inside: BullMQ builds iteration job ids as `repeat:{schedulerId}:{millis}`.
 */
export const schedulerIdOf = (monitorId: number): string => `monitor-${monitorId}`;

export const monitorIdOfScheduler = (schedulerId: string): number | null => {
  const m = /^monitor-(\d+)$/.exec(schedulerId);
  return m ? Number(m[1]) : null;
};
