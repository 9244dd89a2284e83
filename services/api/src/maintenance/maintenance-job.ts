import type { Redis } from 'ioredis';
import {
  compactResultPartitions,
  DAY_MS,
  ensureResultPartitions,
  ensureTimePartitions,
  HOUR_MS,
  nextPeriod,
  periodStart,
  ROLLUP_PARTITIONING,
  type DataSource,
  type EnsureReport,
  type TimePartitionedTable,
} from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { startSingletonInterval, type SingletonInterval } from '../singleton-interval';
import { applyRetention, type RetentionReport } from './retention';

/** Partitions exist this many days ahead, so a stopped API does not send results to the default partition for a week. */
export const PARTITION_DAYS_AHEAD = 7;
/** Monthly rollup partitions exist for this many months after the current one. */
export const PARTITION_MONTHS_AHEAD = 2;
/** A day is compacted this long after it ends: a check planned before midnight may record a little later. */
export const COMPACT_AFTER_DAY_END_MS = HOUR_MS;

export interface MaintenanceReport {
  partitions: EnsureReport;
  rollupPartitions: EnsureReport;
  compacted: string[];
  retention: RetentionReport;
}

/** AUDIT_RETENTION_DAYS when unset (packages/config). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

/** The last instant whose partition must exist: a week ahead for daily partitions, two months for monthly ones. */
function partitionsUntil(span: TimePartitionedTable['span'], now: Date): Date {
  if (span === 'day') return new Date(now.getTime() + PARTITION_DAYS_AHEAD * DAY_MS);
  let month = periodStart('month', now);
  for (let i = 0; i < PARTITION_MONTHS_AHEAD; i += 1) month = nextPeriod('month', month);
  return month;
}

/** The rollups' partitions from yesterday's period (a late write) to the ones ahead, for every partitioned rollup table. */
async function ensureRollupPartitions(ds: DataSource, now: Date): Promise<EnsureReport> {
  const report: EnsureReport = { created: [], skipped: [] };
  for (const t of ROLLUP_PARTITIONING) {
    const { created, skipped } = await ensureTimePartitions(ds, t, new Date(now.getTime() - DAY_MS), partitionsUntil(t.span, now));
    report.created.push(...created);
    report.skipped.push(...skipped);
  }
  return report;
}

/** One round: raw-result and rollup partitions created ahead, old data and audit entries gone, closed days compacted. */
export async function runMaintenance(ds: DataSource, resultRetentionDays: number, now = new Date(), auditRetentionDays = DEFAULT_AUDIT_RETENTION_DAYS): Promise<MaintenanceReport> {
  const partitions = await ensureResultPartitions(ds, new Date(now.getTime() - DAY_MS), partitionsUntil('day', now));
  const rollupPartitions = await ensureRollupPartitions(ds, now);
  const retention = await applyRetention(ds, { resultRetentionDays, auditRetentionDays }, now);
  const compacted = await compactResultPartitions(ds, new Date(now.getTime() - COMPACT_AFTER_DAY_END_MS));
  return { partitions, rollupPartitions, compacted, retention };
}

function worthLogging(r: MaintenanceReport): boolean {
  const { retention: t } = r;
  const partitionChanges = r.partitions.created.length + r.partitions.skipped.length + r.rollupPartitions.created.length + r.rollupPartitions.skipped.length;
  return partitionChanges + r.compacted.length + t.resultPartitions.length + t.rollupPartitions.length > 0 || t.results + t.locationResults + t.rollups5m + t.rollups1h + t.agentRollups1h + t.auditEntries > 0;
}

/** Runs the maintenance now and then every `intervalMs` (an hour), one API instance at a time. */
export function startMaintenanceJob(opts: {
  ds: DataSource;
  redis: Redis;
  prefix: string;
  resultRetentionDays: number;
  auditRetentionDays: number;
  logger: Logger;
  intervalMs?: number;
}): SingletonInterval<MaintenanceReport> {
  return startSingletonInterval({
    redis: opts.redis,
    lockKey: `${opts.prefix}:maintenance:retention-lock`,
    intervalMs: opts.intervalMs ?? HOUR_MS,
    logger: opts.logger,
    failure: 'maintenance failed; retrying next round',
    run: async () => {
      const report = await runMaintenance(opts.ds, opts.resultRetentionDays, new Date(), opts.auditRetentionDays);
      if (worthLogging(report)) opts.logger.info({ ...report }, 'maintenance: result and rollup partitions, retention and audit log');
      return report;
    },
  });
}
