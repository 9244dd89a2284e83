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
import { enqueue, type CatalogQueue } from './enqueue';
import { JOBS } from './job-catalog';
import type { QueueName } from './queue-names';
import type { RunCheckJob } from './run-check.job';
import { checkShardOf, connectCheckShards, type CheckShardAddress, type CheckShardConnection } from './check-shard-map';
import { ShardSchedules, type MonitorSchedule } from './shard-schedules';

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
  /** The shards of the checks queue, by index (one without CHECK_SHARDS: docs/scaling.md). */
  readonly shards: readonly ShardSchedules[];
  /** Shard 0's queue: the only one of an installation without CHECK_SHARDS. */
  readonly queue: CatalogQueue<typeof QueueName.checks>;
  /** Shard 0's schedule hash: monitor id → `{jobId}|{configVersion}:{interval}` */
  readonly entriesKey: string;
  readonly heartbeats: HeartbeatDeadlines;

  /**
   * `connection` and `prefix` hold the heartbeats' deadlines, and the checks queue too unless
   * `shards` lists the shards of the checks queue (connectCheckShards()). `owned`: connections
   * close() quits, the ones opened for shards.
   */
  constructor(
    connection: Redis,
    readonly prefix: string,
    shards: readonly CheckShardConnection[] = [{ connection, prefix }],
    private readonly owned: readonly Redis[] = [],
  ) {
    this.shards = shards.map((s, index) => new ShardSchedules(index, s.connection, s.prefix));
    this.queue = this.shards[0]!.queue;
    this.entriesKey = this.shards[0]!.entriesKey;
    this.heartbeats = new HeartbeatDeadlines(connection, prefix);
  }

  /** The shard a monitor's job lives on (checkShardOf()). */
  shardOf(monitorId: number): ShardSchedules {
    return this.shards[checkShardOf(monitorId, this.shards.length)]!;
  }

  private templateOf(m: SchedulableMonitor): RunCheckJob {
    const template: RunCheckJob = { monitorId: m.id, configVersion: m.configVersion, check: compactCheck(checkConfigOf(m)) };
    // Only monitors with agents carry the field: the others' jobs stay exactly as they were.
    if (m.agentIds && m.agentIds.length > 0) template.agentIds = [...m.agentIds].sort((a, b) => a - b);
    return template;
  }

  /**
   * Creates or replaces the monitor's schedule, on its shard. A monitor nothing probes (a
   * heartbeat) has no job: its schedule is its deadline (HeartbeatDeadlines), from the times its
   * row holds.
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
    const data: RunCheckJob = { ...this.templateOf(m), interval: m.checkInterval, plannedAt };
    await this.shardOf(m.id).replace(m.id, monitorJobIdOf(m.id), `${m.configVersion}:${m.checkInterval}`, data);
  }

  /** Queues one check to run now (a new or resumed monitor is checked at once), on its shard. */
  async checkNow(m: SchedulableMonitor): Promise<void> {
    if (!isProbed(m)) return;
    await enqueue(this.shardOf(m.id).queue, JOBS.runCheck, this.templateOf(m));
  }

  /** Removes the monitor's job, or a heartbeat's deadline. */
  async unschedule(monitorId: number): Promise<void> {
    await this.heartbeats.remove(monitorId);
    await this.shardOf(monitorId).remove(monitorId);
  }

  /** Monitor id → "configVersion:interval" of every schedule whose job exists, on any shard. */
  async scheduledVersions(): Promise<Map<number, string>> {
    const all = new Map<number, string>();
    for (const shard of this.shards) for (const [id, version] of await shard.scheduledVersions()) all.set(id, version);
    return all;
  }

  /** Removes the job schedulers an earlier version left, on every shard (ShardSchedules.removeLegacySchedulers()). */
  async removeLegacySchedulers(): Promise<number> {
    let removed = 0;
    for (const shard of this.shards) removed += await shard.removeLegacySchedulers();
    return removed;
  }

  /** The monitor's schedule, or undefined when it has none (paused, deleted, or its job is gone). */
  async scheduleOf(monitorId: number): Promise<MonitorSchedule | undefined> {
    return this.shardOf(monitorId).scheduleOf(monitorId);
  }

  async close(): Promise<void> {
    for (const shard of this.shards) await shard.close();
    for (const connection of this.owned) await connection.quit().catch(() => connection.disconnect());
  }
}


/**
 * A MonitorScheduler over the checks queue's shards (CHECK_SHARDS, docs/scaling.md): `main` holds
 * the heartbeats' deadlines and, on its URL, the shards there; `connect` opens a connection to
 * each other shard's Redis, which the scheduler's close() quits.
 */
export function openMonitorScheduler(
  main: { connection: Redis; url: string; prefix: string },
  shards: readonly CheckShardAddress[],
  connect: (url: string) => Redis,
): MonitorScheduler {
  const { shards: connected, opened } = connectCheckShards(shards, main, connect);
  return new MonitorScheduler(main.connection, main.prefix, connected, opened);
}
