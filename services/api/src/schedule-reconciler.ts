import { Monitor, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { MonitorScheduler } from '@uptime/queues';
import type { Redis } from 'ioredis';
import { In } from 'typeorm';

export interface ReconcileReport {
  created: number;
  updated: number;
  removed: number;
}

const BATCH = 500;

/**
 * Makes Redis agree with Postgres: every active monitor has exactly one schedule built from its
 * current config version, and no schedule exists for a paused or deleted monitor. Redis may have
 * come back empty after a restart; a Postgres row is the truth.
 */
export async function reconcileSchedules(ds: DataSource, scheduler: MonitorScheduler): Promise<ReconcileReport> {
  const scheduled = await scheduler.scheduledVersions();
  const rows: { id: number; version: string }[] = await ds.query(
    `SELECT id, config_version || ':' || check_interval AS version FROM monitors WHERE status <> 'paused'`,
  );
  const stale: number[] = [];
  let created = 0;
  for (const row of rows) {
    const existing = scheduled.get(row.id);
    if (existing === undefined) created += 1;
    if (existing !== row.version) stale.push(row.id);
    scheduled.delete(row.id);
  }
  for (let i = 0; i < stale.length; i += BATCH) {
    const monitors = await ds.getRepository(Monitor).findBy({ id: In(stale.slice(i, i + BATCH)) });
    for (const m of monitors) if (m.status !== 'paused') await scheduler.schedule(m);
  }
  // What is left in `scheduled` has no active monitor behind it.
  for (const monitorId of scheduled.keys()) await scheduler.unschedule(monitorId);
  return { created, updated: stale.length - created, removed: scheduled.size };
}

/**
 * Runs the reconciler now and then every `intervalMs`, one API instance at a time (a Redis lock),
 * so several instances do not repeat the work.
 */
export function startScheduleReconciler(opts: {
  ds: DataSource;
  scheduler: MonitorScheduler;
  redis: Redis;
  logger: Logger;
  intervalMs?: number;
}): { stop(): void; runOnce(): Promise<ReconcileReport | null> } {
  const intervalMs = opts.intervalMs ?? 60_000;
  const lockKey = `${opts.scheduler.prefix}:scheduler:reconcile-lock`;
  const runOnce = async (): Promise<ReconcileReport | null> => {
    const got = await opts.redis.set(lockKey, String(process.pid), 'PX', Math.max(intervalMs - 1000, 5000), 'NX');
    if (got !== 'OK') return null;
    const report = await reconcileSchedules(opts.ds, opts.scheduler);
    if (report.created || report.updated || report.removed) opts.logger.info({ ...report }, 'schedules reconciled');
    return report;
  };
  const tick = (): void => {
    runOnce().catch((err: unknown) => opts.logger.warn({ err }, 'schedule reconciliation failed; retrying next round'));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
