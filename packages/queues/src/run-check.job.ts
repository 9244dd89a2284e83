import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, Min } from 'class-validator';
import type { CompactCheckConfig } from './compact-check';
import { parseJob } from './parse-job';

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
  /**
   * A monitor's own job (monitor-scheduler.ts) carries its interval in seconds and the time, in
   * epoch milliseconds, its current check is planned for; a one-off "check now" carries neither.
   */
  @IsOptional() @IsInt() @Min(1) interval?: number;
  @IsOptional() @IsInt() @Min(1) plannedAt?: number;
  /** Set while a monitor's job runs the one retry of a check that failed on our side. */
  @IsOptional() @IsBoolean() retrying?: boolean;
}

/** Where a run-check job stands in its monitor's cycle (see RunCheckJob), read from data not yet parsed. */
export interface CycleFields {
  /** Seconds; undefined for a one-off "check now". */
  interval?: number;
  /** Epoch milliseconds. */
  plannedAt?: number;
  retrying: boolean;
}

/**
 * The cycle fields of a job's data, each only when it holds what RunCheckJob allows: the lag
 * metric and plannedTimeOf read them from any job, parsed or not, of this version or an older one.
 */
export function cycleFieldsOf(data: unknown): CycleFields {
  const { interval, plannedAt, retrying } = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return {
    ...(isPositiveInt(interval) ? { interval: interval as number } : {}),
    ...(isPositiveInt(plannedAt) ? { plannedAt: plannedAt as number } : {}),
    retrying: retrying === true,
  };
}

/**
 * `parseJob(RunCheckJob, data)` for the hot path, one call per check. A payload the plain checks
 * below accept is one the decorators accept too, and comes back as the same RunCheckJob (its
 * objects shared with `data`, not copied): class-transformer and class-validator cost more CPU
 * than the rest of the job's handling (docs/capacity.md, "The probe's CPU per check"). Anything
 * else goes through `parseJob`, so an invalid payload fails exactly as before.
 */
export function parseRunCheckJob(data: unknown): RunCheckJob {
  return isPlainlyValidRunCheckJob(data) ? Object.assign(new RunCheckJob(), data) : parseJob(RunCheckJob, data);
}

const isPositiveInt = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 1;

/**
 * The rules of RunCheckJob's decorators, stricter where that is simpler (a null is left to them),
 * and no key class-transformer would leave out of its copy.
 */
function isPlainlyValidRunCheckJob(data: unknown): data is RunCheckJob {
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype || holdsUncopiedKey(data)) return false;
  const { monitorId, configVersion, check, agentIds, interval, plannedAt, retrying } = data as Record<string, unknown>;
  return (
    isPositiveInt(monitorId) &&
    isPositiveInt(configVersion) &&
    (interval === undefined || isPositiveInt(interval)) &&
    (plannedAt === undefined || isPositiveInt(plannedAt)) &&
    (retrying === undefined || typeof retrying === 'boolean') &&
    typeof check === 'object' &&
    check !== null &&
    !Array.isArray(check) &&
    (agentIds === undefined || (Array.isArray(agentIds) && agentIds.length <= 100 && agentIds.every(isPositiveInt)))
  );
}

/**
 * class-transformer leaves out of its copy, at any depth, each key that names a member of
 * Object.prototype (`__proto__`, `constructor`, `toString`...).
 */
function holdsUncopiedKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsUncopiedKey(item)) return true;
    return false;
  }
  for (const key of Object.keys(value)) {
    if (key in Object.prototype || holdsUncopiedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * The job scheduler id a monitor had before each monitor got a job of its own
 * (monitor-scheduler.ts): kept to find and remove such schedulers left in Redis by an upgrade.
 */
export const schedulerIdOf = (monitorId: number): string => `monitor-${monitorId}`;

export const monitorIdOfScheduler = (schedulerId: string): number | null => {
  const m = /^monitor-(\d+)$/.exec(schedulerId);
  return m ? Number(m[1]) : null;
};
