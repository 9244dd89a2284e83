import type { Redis } from 'ioredis';
import { openQueue, type CatalogQueue } from './enqueue';
import { JOBS, jobOptionsOf } from './job-catalog';
import { QueueName } from './queue-names';
import { monitorIdOfScheduler, schedulerIdOf, type RunCheckJob } from './run-check.job';

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

/** The hash of every monitor's schedule entry (MonitorScheduler), which check-workers read too. */
export const scheduleEntriesKey = (prefix: string): string => `${prefix}:scheduler:versions`;

/**
 * One shard's schedules (docs/scaling.md): its checks queue and its schedule hash, on the shard's
 * own Redis under its own prefix. MonitorScheduler picks the shard; this does what a schedule
 * needs inside it.
 */
export class ShardSchedules {
  readonly queue: CatalogQueue<typeof QueueName.checks>;
  /** monitor id → `{jobId}|{configVersion}:{interval}` */
  readonly entriesKey: string;

  constructor(
    readonly index: number,
    private readonly connection: Redis,
    readonly prefix: string,
  ) {
    this.queue = openQueue(QueueName.checks, { connection, prefix });
    this.entriesKey = scheduleEntriesKey(prefix);
  }

  /** Records `jobId` as the monitor's job (built from `version`), adds it, and retires the job it replaces. */
  async replace(monitorId: number, jobId: string, version: string, data: RunCheckJob): Promise<void> {
    // Both at once, one round trip: until the job exists its entry names a job that is not there,
    // which the reconciler treats as no schedule; a job whose entry is not written yet is due a
    // second later at the earliest.
    const [previous] = await Promise.all([
      this.connection.eval(SWAP_ENTRY, 1, this.entriesKey, String(monitorId), `${jobId}|${version}`) as Promise<string | null>,
      this.queue.add(JOBS.runCheck.name, data, { ...jobOptionsOf(JOBS.runCheck), jobId, delay: Math.max(0, (data.plannedAt ?? 0) - Date.now()) }),
    ]);
    if (previous !== null) await this.retire(monitorId, parseEntry(previous));
  }

  /** Removes the monitor's entry and its job from this shard. */
  async remove(monitorId: number): Promise<void> {
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

  /** Monitor id → "configVersion:interval" of every schedule of this shard whose job exists in Redis. */
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

  /** Every monitor id this shard holds an entry for, whether or not its job exists. */
  async entryMonitorIds(): Promise<number[]> {
    return (await this.connection.hkeys(this.entriesKey)).map(Number);
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

  /** The monitor's schedule on this shard, or undefined when it has none. */
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
