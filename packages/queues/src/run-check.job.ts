import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, Min } from 'class-validator';
import type { CompactCheckConfig } from './compact-check';
import { compileRules, type PropertyTest } from './compiled-rules';
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
  /**
   * BullMQ's stall count of the job when it last moved on to a slot. A higher count when the job
   * is picked up means it came back from a worker that died or stalled mid-check (the peers'
   * take-back counts as a stall: dead-worker-reaper.ts), so the check is a re-run.
   */
  @IsOptional() @IsInt() @Min(0) stallsSeen?: number;
}

/** Where a run-check job stands in its monitor's cycle (see RunCheckJob), read from data not yet parsed. */
export interface CycleFields {
  /** Seconds; undefined for a one-off "check now". */
  interval?: number;
  /** Epoch milliseconds. */
  plannedAt?: number;
  retrying: boolean;
}

/** RunCheckJob's decorators, run directly: the one reading of a job's data, whole or field by field. */
const RULES = compileRules(RunCheckJob);
const rulesOf = (property: keyof RunCheckJob): PropertyTest => {
  const test = RULES.get(property);
  if (!test) throw new Error(`RunCheckJob.${property} has no rules`);
  return test;
};
const PROPERTIES = [...RULES.keys()];
const PROPERTY_TESTS = [...RULES.values()];
const intervalPasses = rulesOf('interval');
const plannedAtPasses = rulesOf('plannedAt');

/**
 * The cycle fields of a job's data, each only when RunCheckJob's rules accept it: the lag metric
 * and plannedTimeOf read them from any job, parsed or not, of this version or an older one.
 */
export function cycleFieldsOf(data: unknown): CycleFields {
  const object = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const { interval, plannedAt, retrying } = object;
  // Built field by field, not spread from conditional objects: this runs twice per check.
  const fields: CycleFields = { retrying: retrying === true };
  // Present: the rules leave an absent (or null) optional field alone, a cycle field is a value.
  if (interval != null && intervalPasses(interval, object)) fields.interval = interval as number;
  if (plannedAt != null && plannedAtPasses(plannedAt, object)) fields.plannedAt = plannedAt as number;
  return fields;
}

/**
 * `parseJob(RunCheckJob, data)` for the hot path, one call per check: plain JSON data is checked
 * by RunCheckJob's own rules, run directly (compiled-rules.ts), and an accepted payload comes back
 * as the same RunCheckJob (its objects shared with `data`, not copied): class-transformer and
 * class-validator cost more CPU than the rest of the job's handling (docs/capacity.md, "The
 * probe's CPU per check"). Anything else, and every refusal, goes through `parseJob`, so an
 * invalid payload fails exactly as before, with class-validator's messages.
 */
export function parseRunCheckJob(data: unknown): RunCheckJob {
  return isPlainlyValidRunCheckJob(data) ? Object.assign(new RunCheckJob(), data) : parseJob(RunCheckJob, data);
}

/** Data class-transformer would copy as it is, and every rule of RunCheckJob accepts. */
function isPlainlyValidRunCheckJob(data: unknown): data is RunCheckJob {
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype || holdsUncopiedKey(data)) return false;
  const object = data as Record<string, unknown>;
  for (let i = 0; i < PROPERTIES.length; i++) if (!PROPERTY_TESTS[i]!(object[PROPERTIES[i]!], object)) return false;
  return true;
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
