import type { Redis } from 'ioredis';
import { CHECK_FIELD_NAMES, type CheckConfig, type CheckField } from '@uptime/probe';
import { compactCheck } from './compact-check';
import { enqueue, openQueue, type CatalogQueue } from './enqueue';
import { JOBS, jobOptionsOf } from './job-catalog';
import { QueueName } from './queue-names';
import { monitorIdOfScheduler, schedulerIdOf, type RunCheckJob } from './run-check.job';

/** The fields of a monitor that its schedule and checks depend on: its check plus how often. */
export interface SchedulableMonitor extends CheckConfig {
  id: number;
  configVersion: number;
  checkInterval: number;
  /** Assigned agents (monitor_agents); absent or empty for a check run only by the workers. */
  agentIds?: readonly number[];
}

/** The check configuration of a monitor: the CHECK_FIELDS properties, copied (packages/probe). */
export function checkConfigOf(m: SchedulableMonitor): CheckConfig {
  const config: Partial<Record<CheckField, unknown>> = {};
  for (const field of CHECK_FIELD_NAMES) config[field] = m[field];
  return config as CheckConfig;
}

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

/**
 * Owns the BullMQ job schedulers of monitors: one scheduler per active monitor, whose job template
 * carries the whole check configuration, so a check reads nothing from Postgres before probing.
 * A hash beside the schedulers records the config version each was built from, so the reconciler
 * compares cheaply.
 */
export class MonitorScheduler {
  readonly queue: CatalogQueue<typeof QueueName.checks>;
  private readonly versionsKey: string;

  constructor(
    private readonly connection: Redis,
    readonly prefix: string,
  ) {
    this.queue = openQueue(QueueName.checks, { connection, prefix });
    this.versionsKey = `${prefix}:scheduler:versions`;
  }

  private templateOf(m: SchedulableMonitor): RunCheckJob {
    const template: RunCheckJob = { monitorId: m.id, configVersion: m.configVersion, check: compactCheck(checkConfigOf(m)) };
    // Only monitors with agents carry the field: the others' templates stay exactly as they were.
    if (m.agentIds && m.agentIds.length > 0) template.agentIds = [...m.agentIds].sort((a, b) => a - b);
    return template;
  }

  /** Creates or replaces the monitor's schedule. */
  async schedule(m: SchedulableMonitor): Promise<void> {
    const every = m.checkInterval * 1000;
    const offset = scheduleOffsetMs(m.id, every) || 1;
    // Both at once, one round trip: the version record only matters beside an existing scheduler
    // (scheduledVersions reads the schedulers first), and a scheduler whose record is missing or
    // differs is rebuilt by the reconciler, so neither order protects anything.
    await Promise.all([
      this.queue.upsertJobScheduler(
        schedulerIdOf(m.id),
        // The first slot is at least a second away: this may run inside the transaction that saves
        // the monitor, and a check firing before that commit would find no monitor and be dropped.
        { every, offset, startDate: firstSlotAfter(Date.now() + FIRST_SLOT_MARGIN_MS, every, offset) },
        { name: JOBS.runCheck.name, data: this.templateOf(m), opts: jobOptionsOf(JOBS.runCheck) },
      ),
      this.connection.hset(this.versionsKey, String(m.id), `${m.configVersion}:${m.checkInterval}`),
    ]);
  }

  /** Queues one check to run now (a new or resumed monitor is checked at once). */
  async checkNow(m: SchedulableMonitor): Promise<void> {
    await enqueue(this.queue, JOBS.runCheck, this.templateOf(m));
  }

  async unschedule(monitorId: number): Promise<void> {
    await this.queue.removeJobScheduler(schedulerIdOf(monitorId));
    await this.connection.hdel(this.versionsKey, String(monitorId));
  }

  /** Monitor id → "configVersion:interval" of every schedule that exists in Redis. */
  async scheduledVersions(): Promise<Map<number, string>> {
    const [ids, versions] = await Promise.all([
      this.connection.zrange(this.queue.keys.repeat, 0, -1),
      this.connection.hgetall(this.versionsKey),
    ]);
    const result = new Map<number, string>();
    for (const schedulerId of ids) {
      const monitorId = monitorIdOfScheduler(schedulerId);
      if (monitorId !== null) result.set(monitorId, versions[String(monitorId)] ?? 'unknown');
    }
    return result;
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}
