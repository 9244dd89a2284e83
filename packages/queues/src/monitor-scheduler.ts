import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  TYPE_CHECK_FIELDS,
  heartbeatDeadline,
  isProbedType,
  type CheckConfig,
  type CheckField,
  type CheckFieldValues,
  type HeartbeatTimes,
  type MonitorType,
  type ProbedType,
} from '@uptime/probe';
import { HeartbeatDeadlines } from './heartbeat-deadlines';
import { compactCheck } from './compact-check';
import { enqueue, openQueue, type CatalogQueue } from './enqueue';
import { JOBS, jobOptionsOf } from './job-catalog';
import { QueueName } from './queue-names';
import { monitorIdOfScheduler, schedulerIdOf, type RunCheckJob } from './run-check.job';

/** The fields of a monitor that its schedule and checks depend on: its check plus how often. */
export interface SchedulableMonitor extends CheckFieldValues {
  type: MonitorType;
  id: number;
  configVersion: number;
  checkInterval: number;
  /** Assigned agents (monitor_agents); absent or empty for a check run only by the workers. */
  agentIds?: readonly number[];
}

/** A heartbeat's deadline is made of its row's times (docs/heartbeats.md); absent: none. */
type SchedulableHeartbeat = SchedulableMonitor & Partial<HeartbeatTimes>;

/**
 * The check configuration of a monitor: its type and that type's check properties, copied
 * (TYPE_CHECK_FIELDS of packages/probe); another type's fields a row still holds stay behind.
 */
export function checkConfigOf(m: SchedulableMonitor): CheckConfig {
  // Callers skip monitors nothing probes (a heartbeat): one reaching here is a bug.
  if (!isProbed(m)) throw new Error(`Monitor ${m.id} is a ${m.type} monitor: it has no check`);
  const config: Partial<Record<CheckField | 'type', unknown>> = { type: m.type };
  for (const field of TYPE_CHECK_FIELDS[m.type]) config[field] = m[field];
  return config as CheckConfig;
}

const isProbed = (m: SchedulableMonitor): m is SchedulableMonitor & { type: ProbedType } => isProbedType(m.type);

/**
 * Where a monitor's checks fall inside its interval: a fixed pseudo-random offset from its id,
 * so 10,000 monitors created in the same second still spread evenly over the interval.
 */
export function scheduleOffsetMs(monitorId: number, intervalMs: number): number {
  const hashed = Math.imul(monitorId, 0x9e3779b1) >>> 0;
  return Math.floor((hashed / 2 ** 32) * intervalMs);
}

const FIRST_SLOT_MARGIN_MS = 1000;
/** The first time at or after `t` that falls on the schedule's grid (`offset` within each `every`). */
export function firstSlotAfter(t: number, every: number, offset: number): number {
  const slot = Math.floor(t / every) * every + offset;
  return slot >= t ? slot : slot + every;
}

/** The next time a monitor's job is due after the check planned for `plannedAt` ran at `now`. */
export function nextPlannedTime(plannedAt: number, every: number, offset: number, now: number): number {
  const next = plannedAt + every;
  // Running more than an interval late: the missed slots are not made up, as a job scheduler's.
  return next > now ? next : firstSlotAfter(now, every, offset);
}

/** Where a monitor's checks fall inside an interval of `checkInterval` seconds (scheduleOffsetMs, never 0). */
export const offsetOf = (monitorId: number, checkInterval: number): number => scheduleOffsetMs(monitorId, checkInterval * 1000) || 1;

/**
 * A monitor's own job ids: the monitor id and a generation, new each time its schedule is (re)built.
 * No ':' (BullMQ refuses it in ids) and no all-digit tail (plannedTimeOf reads one as a time).
 */
const monitorJobIdOf = (monitorId: number): string => `m-${monitorId}-${Date.now().toString(36)}${randomBytes(3).toString('hex')}g`;

/** Whether a `run-check` job is a monitor's own, rather than a one-off "check now". */
export const isMonitorJobId = (jobId: string | undefined): boolean => jobId?.startsWith('m-') === true;

// The schedule hash holds, per monitor, `{jobId}|{configVersion}:{interval}`: the one job that
// runs its checks, and what it was built from (what the reconciler compares with Postgres).
const SWAP_ENTRY = `local previous = redis.call('hget', KEYS[1], ARGV[1])
redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
return previous`;
const TAKE_ENTRY = `local previous = redis.call('hget', KEYS[1], ARGV[1])
redis.call('hdel', KEYS[1], ARGV[1])
return previous`;
// 1 for each job that exists and has not finished (failed, typically): alive, in whichever state.
const ALIVE = `local alive = {}
for i, key in ipairs(KEYS) do
  alive[i] = (redis.call('exists', key) == 1 and redis.call('hexists', key, 'finishedOn') == 0) and 1 or 0
end
return alive`;
const JOBS_PER_CALL = 1000;

interface ScheduleEntry {
  jobId: string | null;
  version: string;
}

function parseEntry(entry: string): ScheduleEntry {
  const bar = entry.indexOf('|');
  // An entry written before monitors had jobs of their own holds the version alone.
  return bar < 0 ? { jobId: null, version: entry } : { jobId: entry.slice(0, bar), version: entry.slice(bar + 1) };
}

/** A monitor's schedule as Redis holds it (tests and diagnostics). */
export interface MonitorSchedule {
  jobId: string;
  /** Interval in milliseconds. */
  every: number;
  /** When the job is next due (or the check it is running was planned for), epoch milliseconds. */
  plannedAt: number;
  /** What every check of the schedule runs: the job's data without its place in the cycle. */
  template: RunCheckJob;
}

/**
 * Owns the schedules of monitors: each active monitor has one BullMQ job of its own, which lives
 * as long as its schedule. It carries the whole check configuration, so a check reads nothing from
 * Postgres before probing; after each check the check-worker moves it back to the delayed set for
 * its next slot (services/check-worker/src/monitor-job-cycle.ts). That costs about half the Redis
 * work of a job scheduler making a new job for every check (docs/capacity.md, "What the queue
 * costs per check").
 *
 * A schedule is never edited in place: (re)scheduling makes a new job and records it in the
 * schedule hash; the job it replaces is removed, or, when a worker is running it (BullMQ keeps
 * active jobs), finds itself no longer the recorded one when its check ends and ends there
 * (monitor-job-cycle.ts). The hash also records the config version each job was built from, so
 * the reconciler compares cheaply.
 */
export class MonitorScheduler {
  readonly queue: CatalogQueue<typeof QueueName.checks>;
  /** monitor id → `{jobId}|{configVersion}:{interval}` */
  readonly entriesKey: string;
  readonly heartbeats: HeartbeatDeadlines;

  constructor(
    private readonly connection: Redis,
    readonly prefix: string,
  ) {
    this.queue = openQueue(QueueName.checks, { connection, prefix });
    this.entriesKey = scheduleEntriesKey(prefix);
    this.heartbeats = new HeartbeatDeadlines(connection, prefix);
  }

  private templateOf(m: SchedulableMonitor): RunCheckJob {
    const template: RunCheckJob = { monitorId: m.id, configVersion: m.configVersion, check: compactCheck(checkConfigOf(m)) };
    // Only monitors with agents carry the field: the others' jobs stay exactly as they were.
    if (m.agentIds && m.agentIds.length > 0) template.agentIds = [...m.agentIds].sort((a, b) => a - b);
    return template;
  }

  /**
   * Creates or replaces the monitor's schedule. A monitor nothing probes (a heartbeat) has no
   * job: its schedule is its deadline (HeartbeatDeadlines), from the times its row holds.
   */
  async schedule(m: SchedulableHeartbeat): Promise<void> {
    if (!isProbed(m)) {
      const deadline = heartbeatDeadline({
        heartbeatDueAt: m.heartbeatDueAt ?? null,
        heartbeatStartedAt: m.heartbeatStartedAt ?? null,
        heartbeatGrace: m.heartbeatGrace ?? null,
      });
      return deadline ? this.heartbeats.set(m.id, deadline) : this.heartbeats.remove(m.id);
    }
    const every = m.checkInterval * 1000;
    // The first slot is at least a second away: this may run inside the transaction that saves
    // the monitor, and a check firing before that commit would find no monitor and be dropped.
    const plannedAt = firstSlotAfter(Date.now() + FIRST_SLOT_MARGIN_MS, every, offsetOf(m.id, m.checkInterval));
    const jobId = monitorJobIdOf(m.id);
    const data: RunCheckJob = { ...this.templateOf(m), interval: m.checkInterval, plannedAt };
    // Both at once, one round trip: until the job exists its entry names a job that is not there,
    // which the reconciler treats as no schedule; a job whose entry is not written yet is due a
    // second later at the earliest.
    const [previous] = await Promise.all([
      this.connection.eval(SWAP_ENTRY, 1, this.entriesKey, String(m.id), `${jobId}|${m.configVersion}:${m.checkInterval}`) as Promise<
        string | null
      >,
      this.queue.add(JOBS.runCheck.name, data, { ...jobOptionsOf(JOBS.runCheck), jobId, delay: Math.max(0, plannedAt - Date.now()) }),
    ]);
    if (previous !== null) await this.retire(m.id, parseEntry(previous));
  }

  /** Queues one check to run now (a new or resumed monitor is checked at once). */
  async checkNow(m: SchedulableMonitor): Promise<void> {
    if (!isProbed(m)) return;
    await enqueue(this.queue, JOBS.runCheck, this.templateOf(m));
  }

  /** Removes the monitor's job, or a heartbeat's deadline. */
  async unschedule(monitorId: number): Promise<void> {
    await this.heartbeats.remove(monitorId);
    const previous = (await this.connection.eval(TAKE_ENTRY, 1, this.entriesKey, String(monitorId))) as string | null;
    if (previous !== null) await this.retire(monitorId, parseEntry(previous));
  }

  /**
   * Removes the job an entry named. A job a worker is running cannot be removed: it ends itself
   * when its check ends, no longer being the monitor's recorded job.
   */
  private async retire(monitorId: number, entry: ScheduleEntry): Promise<void> {
    if (entry.jobId === null) await this.queue.removeJobScheduler(schedulerIdOf(monitorId));
    else await this.queue.remove(entry.jobId);
  }

  /** Monitor id → "configVersion:interval" of every schedule whose job exists in Redis. */
  async scheduledVersions(): Promise<Map<number, string>> {
    const entries = Object.entries(await this.connection.hgetall(this.entriesKey)).map(([id, value]) => ({
      monitorId: Number(id),
      ...parseEntry(value),
    }));
    const withJobs = entries.filter((e): e is typeof e & { jobId: string } => e.jobId !== null);
    const result = new Map<number, string>();
    for (let start = 0; start < withJobs.length; start += JOBS_PER_CALL) {
      const group = withJobs.slice(start, start + JOBS_PER_CALL);
      const alive = (await this.connection.eval(ALIVE, group.length, ...group.map((e) => this.queue.toKey(e.jobId)))) as number[];
      group.forEach((e, i) => {
        if (alive[i] === 1) result.set(e.monitorId, e.version);
      });
    }
    return result;
  }

  /**
   * Removes the job schedulers a version before monitors had jobs of their own left in Redis
   * (one per monitor); the reconciler then gives those monitors their jobs. Returns how many.
   */
  async removeLegacySchedulers(): Promise<number> {
    const ids = await this.connection.zrange(this.queue.keys.repeat, 0, -1);
    const legacy = ids.filter((id) => monitorIdOfScheduler(id) !== null);
    for (const id of legacy) await this.queue.removeJobScheduler(id);
    return legacy.length;
  }

  /** The monitor's schedule, or undefined when it has none (paused, deleted, or its job is gone). */
  async scheduleOf(monitorId: number): Promise<MonitorSchedule | undefined> {
    const entry = await this.connection.hget(this.entriesKey, String(monitorId));
    const jobId = entry === null ? null : parseEntry(entry).jobId;
    const job = jobId === null ? undefined : await this.queue.getJob(jobId);
    if (!job?.id || job.finishedOn) return undefined;
    const { interval = 0, plannedAt = 0, retrying: _retrying, stallsSeen: _stallsSeen, ...template } = job.data as RunCheckJob;
    return { jobId: job.id, every: interval * 1000, plannedAt, template };
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

/** The hash of every monitor's schedule entry (MonitorScheduler), which check-workers read too. */
export const scheduleEntriesKey = (prefix: string): string => `${prefix}:scheduler:versions`;
