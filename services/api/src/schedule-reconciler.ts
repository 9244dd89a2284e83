import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { MonitorScheduler } from '@uptime/queues';
import type { Redis } from 'ioredis';
import { heartbeatDeadline } from '@uptime/probe';
import { activeScheduleVersions, expectingHeartbeats, monitorsByIds } from './monitors/monitors.repository';
import { startSingletonInterval, type SingletonInterval } from './singleton-interval';

export interface ReconcileReport {
  created: number;
  updated: number;
  removed: number;
  /** Jobs removed from a shard their monitor no longer belongs to (CHECK_SHARDS changed: docs/scaling.md). */
  moved: number;
}

const BATCH = 500;

/**
 * Removes from each shard the entries (and jobs) of monitors that belong to another shard: left
 * there when the number of shards changed. Their own shard gets their schedule in
 * reconcileSchedules(). Nothing to do with one shard.
 */
async function removeMisplaced(scheduler: MonitorScheduler): Promise<number> {
  if (scheduler.shards.length === 1) return 0;
  let moved = 0;
  for (const shard of scheduler.shards) {
    for (const monitorId of await shard.entryMonitorIds()) {
      if (scheduler.shardOf(monitorId) === shard) continue;
      await shard.remove(monitorId);
      moved += 1;
    }
  }
  return moved;
}

/**
 * Makes Redis agree with Postgres: every active monitor has exactly one schedule, on its shard,
 * built from its current config version, whose job exists, and no schedule exists for a paused
 * or deleted monitor nor on a shard the monitor does not belong to. Redis may have come back
 * empty after a restart; a Postgres row is the truth. Each shard is compared on its own.
 */
export async function reconcileSchedules(ds: DataSource, scheduler: MonitorScheduler): Promise<ReconcileReport> {
  // Left by an upgrade from job schedulers: their monitors get jobs of their own below.
  await scheduler.removeLegacySchedulers();
  const moved = await removeMisplaced(scheduler);
  const scheduled = await Promise.all(scheduler.shards.map((shard) => shard.scheduledVersions()));
  const rows = await activeScheduleVersions(ds);
  const stale: number[] = [];
  let created = 0;
  for (const row of rows) {
    const onShard = scheduled[scheduler.shardOf(row.id).index]!;
    const existing = onShard.get(row.id);
    if (existing === undefined) created += 1;
    if (existing !== row.version) stale.push(row.id);
    onShard.delete(row.id);
  }
  for (let i = 0; i < stale.length; i += BATCH) {
    const monitors = await monitorsByIds(ds, stale.slice(i, i + BATCH));
    for (const m of monitors) if (m.status !== 'paused') await scheduler.schedule(m);
  }
  // What is left has no active monitor behind it.
  let removed = 0;
  for (const onShard of scheduled) {
    for (const monitorId of onShard.keys()) await scheduler.unschedule(monitorId);
    removed += onShard.size;
  }
  return { created, updated: stale.length - created, removed, moved };
}

/**
 * Gives back their deadline to the heartbeats that expect a ping and have none in Redis (a Redis
 * that came back empty): without it they would never go offline. Read whole only when Redis
 * holds fewer deadlines than Postgres expects. Returns how many were set.
 */
export async function reconcileHeartbeatDeadlines(ds: DataSource, scheduler: MonitorScheduler): Promise<number> {
  const expecting = await expectingHeartbeats(ds);
  if ((await scheduler.heartbeats.count()) >= expecting.length) return 0;
  const present = await scheduler.heartbeats.members();
  let set = 0;
  for (const h of expecting) {
    const at = present.has(h.id) ? null : heartbeatDeadline(h);
    if (at === null) continue;
    await scheduler.heartbeats.set(h.id, at);
    set += 1;
  }
  return set;
}

/** Runs the reconciler now and then every `intervalMs` (a minute), one API instance at a time. */
export function startScheduleReconciler(opts: {
  ds: DataSource;
  scheduler: MonitorScheduler;
  redis: Redis;
  logger: Logger;
  intervalMs?: number;
}): SingletonInterval<ReconcileReport> {
  return startSingletonInterval({
    redis: opts.redis,
    lockKey: `${opts.scheduler.prefix}:scheduler:reconcile-lock`,
    intervalMs: opts.intervalMs ?? 60_000,
    logger: opts.logger,
    failure: 'schedule reconciliation failed; retrying next round',
    run: async () => {
      const report = await reconcileSchedules(opts.ds, opts.scheduler);
      const heartbeats = await reconcileHeartbeatDeadlines(opts.ds, opts.scheduler);
      if (report.created || report.updated || report.removed || report.moved || heartbeats) opts.logger.info({ ...report, heartbeat_deadlines: heartbeats }, 'schedules reconciled');
      return report;
    },
  });
}
