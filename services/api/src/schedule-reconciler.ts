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
}

const BATCH = 500;

/**
 * Makes Redis agree with Postgres: every active monitor has exactly one schedule built from its
 * current config version, whose job exists, and no schedule exists for a paused or deleted
 * monitor. Redis may have come back empty after a restart; a Postgres row is the truth.
 */
export async function reconcileSchedules(ds: DataSource, scheduler: MonitorScheduler): Promise<ReconcileReport> {
  // Left by an upgrade from job schedulers: their monitors get jobs of their own below.
  await scheduler.removeLegacySchedulers();
  const scheduled = await scheduler.scheduledVersions();
  const rows = await activeScheduleVersions(ds);
  const stale: number[] = [];
  let created = 0;
  for (const row of rows) {
    const existing = scheduled.get(row.id);
    if (existing === undefined) created += 1;
    if (existing !== row.version) stale.push(row.id);
    scheduled.delete(row.id);
  }
  for (let i = 0; i < stale.length; i += BATCH) {
    const monitors = await monitorsByIds(ds, stale.slice(i, i + BATCH));
    for (const m of monitors) if (m.status !== 'paused') await scheduler.schedule(m);
  }
  // What is left in `scheduled` has no active monitor behind it.
  for (const monitorId of scheduled.keys()) await scheduler.unschedule(monitorId);
  return { created, updated: stale.length - created, removed: scheduled.size };
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
      if (report.created || report.updated || report.removed || heartbeats) opts.logger.info({ ...report, heartbeat_deadlines: heartbeats }, 'schedules reconciled');
      return report;
    },
  });
}
