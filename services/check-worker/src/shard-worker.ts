import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { CheckShardConfig, Config } from '@uptime/config';
import type { Logger } from '@uptime/logger';
import { closeRedis, type ServiceMetrics } from '@uptime/observability';
import { createQueueWorker, createRedisConnection, openQueue, QueueName, type JobHandlers } from '@uptime/queues';
import { CHECK_LOCK_TTL_MS, CheckLock } from './check-lock';
import { reapDeadWorker } from './dead-worker-reaper';
import { InFlightChecks } from './in-flight-checks';
import { CHECK_FAILED_MESSAGE, MonitorJobCycle } from './monitor-job-cycle';
import { checkWorkerOwnersKey } from './shard-takeover';
import { WorkerLiveness } from './worker-liveness';

/**
 * How BullMQ finds the check jobs of a worker that died (kill -9, OOM) when its peers did not take
 * them back first (worker-liveness.ts does within about 3.5 s; this is the fallback when no peer
 * was running, or the one that took them back died too). A monitor's job is the
 * only one it has (monitor-job-cycle.ts), so it must come back before the monitor's next slot:
 * its lock lives as long as the monitor's check lock and the stalled check runs every third of
 * that, so the job is back in the queue within about 1.7 lock lives (25 s at the default 15 s,
 * under the 30 s minimum interval), and runs the check it was running, late, for its planned
 * time. BullMQ counts a job's stalls over its whole life and fails it past the limit: so no
 * limit here.
 */
function stallHandling(lockTtlMs: number): { lockDuration: number; stalledInterval: number; maxStalledCount: number } {
  return { lockDuration: lockTtlMs, stalledInterval: Math.max(1000, Math.floor(lockTtlMs / 3)), maxStalledCount: 1_000_000 };
}

/** What a shard's `run-check` handler needs of its shard: the lock, the jobs in flight, the job cycle. */
export interface ShardParts {
  readonly index: number;
  readonly inFlight: InFlightChecks;
  readonly cycle: MonitorJobCycle;
  /** Whether this process still holds the job's check: its liveness in the shard confirmed first. */
  isStillOwned(job: Job): Promise<boolean>;
}

/** One shard's BullMQ worker of a check-worker process, with the shard's lock, liveness and job cycle. */
export interface RunningShardWorker {
  readonly index: number;
  readonly worker: Worker;
  readonly inFlight: InFlightChecks;
  /** Stops taking jobs and waits for the ones running (BullMQ's close). */
  closeWorker(): Promise<void>;
  /**
   * After its checks finished or were requeued: leaves the shard's liveness registry (so no peer
   * takes back what is already done) and closes the shard's connections (`graceful`) or drops them.
   */
  release(graceful: boolean): Promise<void>;
}

/**
 * Starts a worker on one shard of the checks queue (docs/scaling.md): its own connections to the
 * shard's Redis (the process's `commands` connection when the shard lives on REDIS_URL, as the
 * one shard of an installation without CHECK_SHARDS does), its check lock and liveness registry
 * under the shard's prefix, so a dead process's checks are taken back within each shard as
 * before (dead-worker-reaper.ts). `owner`: the process takes the shard as its own
 * (CHECK_WORKER_SHARDS), and says so in the shard's owners set when there are several shards.
 */
export async function startShardWorker(opts: {
  shard: CheckShardConfig;
  shardCount: number;
  owner: boolean;
  config: Config;
  commands: Redis;
  logger: Logger;
  metrics: ServiceMetrics;
  concurrency: number;
  handlers: (parts: ShardParts) => JobHandlers<typeof QueueName.checks>;
}): Promise<RunningShardWorker> {
  const { shard, config, metrics } = opts;
  const logger = opts.shardCount > 1 ? opts.logger.child({ shard: shard.index }) : opts.logger;
  const ownConnection = shard.url !== config.redis.url;
  const commands = ownConnection ? createRedisConnection(shard.url, 'uptime-check-worker') : opts.commands;
  const inFlight = new InFlightChecks(new CheckLock(commands, shard.prefix, config.checkLockTtlMs), commands);
  // Read on each scrape for queue_jobs{queue="checks",shard}, which the worker autoscaler follows.
  const queue = openQueue(QueueName.checks, { connection: commands, prefix: shard.prefix });
  const liveness = new WorkerLiveness(
    commands,
    shard.prefix,
    {
      reap: async (deadId) => {
        await reapDeadWorker({ queue, redis: commands, lock: inFlight.lock }, deadId, logger);
      },
      abandon: async () => {
        logger.warn({ abandoned: await inFlight.abandon() }, 'checks in flight given up: the other workers run them again');
      },
    },
    logger,
    config.checkWorkerLivenessTtlMs,
    opts.owner && opts.shardCount > 1 ? checkWorkerOwnersKey(shard.prefix) : undefined,
  );
  const isStillOwned = async (job: Job): Promise<boolean> => {
    await liveness.confirm();
    return !inFlight.isAbandoned(job);
  };
  // BullMQ does not close connections it is handed; release() below quits this one.
  const blocking: Redis = createRedisConnection(shard.url, 'uptime-check-worker-blocking');
  const cycle = new MonitorJobCycle(commands, shard.prefix, logger);
  const worker = createQueueWorker(QueueName.checks, opts.handlers({ index: shard.index, inFlight, cycle, isStillOwned }), {
    connection: blocking,
    prefix: shard.prefix,
    concurrency: opts.concurrency,
    ...stallHandling(config.checkLockTtlMs ?? CHECK_LOCK_TTL_MS),
  });
  worker.on('failed', (job, err) =>
    logger.warn({ err, job_id: job?.id, monitor_id: (job?.data as { monitorId?: number } | undefined)?.monitorId }, CHECK_FAILED_MESSAGE),
  );
  worker.on('error', (err) => logger.error({ err }, 'check worker error'));
  // The lock tokens name the worker, as BullMQ's job lock tokens do: a peer finds both by its id.
  // Set before the worker's first job, which it takes no sooner than a turn of the event loop.
  inFlight.lock.ownBy(worker.id);
  await liveness.start(worker.id);
  const unwatchQueue = metrics.watchQueue(queue, { shard: String(shard.index) });
  await worker.waitUntilReady();
  return {
    index: shard.index,
    worker,
    inFlight,
    closeWorker: () => worker.close(),
    release: async (graceful) => {
      unwatchQueue();
      // Only now: until its checks are finished or requeued, a peer must not take them back.
      await liveness.stop();
      if (graceful) {
        await queue.close();
        await closeRedis(blocking);
        if (ownConnection) await closeRedis(commands);
      } else {
        blocking.disconnect();
        if (ownConnection) commands.disconnect();
      }
    },
  };
}
