import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { CHECK_STATS_PUBLISH_MS, cycleFieldsOf, LATE_FRACTION, publishCheckStats, withdrawCheckStats } from '@uptime/queues';
import { CheckLagWindow } from './check-lag-window';
import { plannedTimeOf } from './run-check.processor';

/** At most one "running late" warning a minute per worker: a backlog is one problem, not 1,000 lines. */
const WARN_EVERY_MS = 60_000;

export interface CheckLagReporter {
  /**
   * Call when a job starts: first attempts only feed the figures (a retry is late by design:
   * monitor-job-cycle.ts). `shard`: the shard of the checks queue it came from (docs/scaling.md).
   */
  observe(job: Job, startedAt?: number, shard?: number): void;
  /** Stops publishing and withdraws this worker's figures. */
  stop(): Promise<void>;
}

/** A scheduled check's interval; null for a one-off "check now". */
function intervalSecondsOf(job: Job): number | null {
  const { interval } = cycleFieldsOf(job.data);
  if (interval !== undefined) return interval;
  // A job scheduler's job (before monitors had jobs of their own) carries the scheduler's options,
  // though JobsOptions does not type them.
  const every = (job.opts as { repeat?: { every?: unknown } }).repeat?.every;
  return typeof every === 'number' && every > 0 ? every / 1000 : null;
}

/**
 * Keeps the worker from falling behind in silence: every check's lag goes to the
 * `uptime_check_lag_seconds` histogram and a one-minute window; the window's figures are
 * published to Redis for GET /dashboard, and a warning is logged when the p99 lag exceeds 10 % of
 * the checks' interval.
 */
export function startCheckLagReporter(deps: {
  metrics: ServiceMetrics;
  redis: Redis;
  prefix: string;
  logger: Logger;
  publishEveryMs?: number;
}): CheckLagReporter {
  const { metrics, redis, prefix, logger } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const window = new CheckLagWindow();
  let lastWarning = 0;
  // One label object per shard, made once: observe() runs once per check.
  const shardLabels: { shard: string }[] = [];

  const publish = async (): Promise<void> => {
    const now = Date.now();
    const snap = window.snapshot(now);
    const late = (snap.intervalFractionP99 ?? 0) > LATE_FRACTION;
    if (late && now - lastWarning >= WARN_EVERY_MS) {
      lastWarning = now;
      logger.warn(
        { lag_p99_seconds: snap.lagP99Seconds, lag_p99_interval_fraction: snap.intervalFractionP99, checks_per_second: snap.perSecond },
        'checks are running late: add a check-worker or raise CHECK_CONCURRENCY',
      );
    }
    await publishCheckStats(redis, prefix, workerId, { perSecond: snap.perSecond, lagP99Seconds: snap.lagP99Seconds, late, at: now });
  };
  const timer = setInterval(() => {
    publish().catch((err: unknown) => logger.debug({ err }, 'check figures not published'));
  }, deps.publishEveryMs ?? CHECK_STATS_PUBLISH_MS);
  timer.unref();

  return {
    observe(job, startedAt = Date.now(), shard = 0) {
      if (job.attemptsMade !== 0 || cycleFieldsOf(job.data).retrying) return;
      const lagSeconds = Math.max(0, startedAt - plannedTimeOf(job).getTime()) / 1000;
      metrics.checkLag.observe((shardLabels[shard] ??= { shard: String(shard) }), lagSeconds);
      window.record(lagSeconds, intervalSecondsOf(job), startedAt);
    },
    async stop() {
      clearInterval(timer);
      await withdrawCheckStats(redis, prefix, workerId).catch(() => undefined);
    },
  };
}
