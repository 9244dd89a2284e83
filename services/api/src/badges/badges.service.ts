import { createHash, randomBytes } from 'node:crypto';
import type { DataSource, MonitorStatus } from '@uptime/db';
import type { PublicCache } from '../http/public-cache';
import { recordAudit, type AuditActor } from '../audit/audit';
import { getMonitor } from '../monitors/monitors.service';
import { uptimeByMonitor, type UptimeSource } from '../monitor-stats/uptime.repository';
import { PUBLIC_DAYS, readDailyCounts } from '../status-pages/public-status.repository';
import { heartbeatDailyUptimes } from '../monitor-stats/heartbeat-uptime.repository';
import { dailyUptime, shownInMaintenance } from '../status-pages/public-status';
import { badgeCreatedAt, badgeMonitor, deleteBadge, replaceBadgeToken } from './badges.repository';

/** 32 random bytes, url-safe: 43 characters, unguessable. */
export const BADGE_TOKEN_LENGTH = 43;
export const BADGE_TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${BADGE_TOKEN_LENGTH}}$`);

/**
 * Only this SHA-256 of a badge token is stored (and used as its cache key), as for API tokens:
 * a copy of the database or of Redis does not reveal the badge addresses of private monitors.
 */
export const hashBadgeToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface BadgesDeps {
  ds: DataSource;
  cache: PublicCache;
  publicUrl: string;
}

export interface CreatedBadge {
  badge_token: string;
  status_url: string;
  uptime_url: string;
}

/** Creates the monitor's badge token, or replaces it (the old one stops working at once). */
export async function createBadge(deps: BadgesDeps, organizationId: number, monitorId: number, actor: AuditActor): Promise<CreatedBadge> {
  await getMonitor(deps.ds, organizationId, monitorId);
  const token = randomBytes(32).toString('base64url');
  const oldHash = await deps.ds.transaction(async (em) => {
    const replaced = await replaceBadgeToken(em, monitorId, hashBadgeToken(token));
    // The badge is the monitor's (one at most): its entry names the monitor.
    await recordAudit(em, { organizationId, actor, action: 'badge.create', resourceId: monitorId });
    return replaced;
  });
  if (oldHash) await deps.cache.forget([deps.cache.keyOf('badge', oldHash)]);
  const base = `${deps.publicUrl}/badge/${token}`;
  return { badge_token: token, status_url: `${base}/status.svg`, uptime_url: `${base}/uptime.svg` };
}

/** Whether a monitor has a badge, and since when: its token is never shown again (only a hash is kept). */
export interface BadgeState {
  exists: boolean;
  created_at: string | null;
}

/** The monitor's badge state: what the owner's page needs to offer "Revoke" only when there is one. */
export async function readBadgeState(deps: BadgesDeps, organizationId: number, monitorId: number): Promise<BadgeState> {
  await getMonitor(deps.ds, organizationId, monitorId);
  const createdAt = await badgeCreatedAt(deps.ds, monitorId);
  return { exists: createdAt !== undefined, created_at: createdAt?.toISOString() ?? null };
}

/** Revokes the monitor's badge; true when it had one. */
export async function revokeBadge(deps: BadgesDeps, organizationId: number, monitorId: number, actor: AuditActor): Promise<boolean> {
  await getMonitor(deps.ds, organizationId, monitorId);
  const hashes = await deps.ds.transaction(async (em) => {
    const deleted = await deleteBadge(em, monitorId);
    await recordAudit(em, { organizationId, actor, action: 'badge.revoke', resourceId: monitorId });
    return deleted;
  });
  await deps.cache.forget(hashes.map((hash) => deps.cache.keyOf('badge', hash)));
  return hashes.length > 0;
}

/** What a badge shows: the monitor's status and its uptime over each period. */
export interface BadgeFacts {
  status: MonitorStatus;
  /** Shown as "maintenance" in place of its status, as on the status page. */
  in_maintenance: boolean;
  uptime: Record<'24h' | '7d' | '30d' | '90d', number | null>;
}

/** The facts behind the badge with this token hash, in one query set; undefined when unknown. */
export async function readBadgeFacts(source: UptimeSource, tokenHash: string, now = new Date()): Promise<BadgeFacts | undefined> {
  const monitor = await badgeMonitor(source.ds, tokenHash);
  if (!monitor) return undefined;
  const [uptime, daily, heartbeatDays] = await Promise.all([
    uptimeByMonitor(source, [monitor.id], now),
    readDailyCounts(source.ds, [monitor.id], now),
    heartbeatDailyUptimes(source.ds, [monitor.id], now, PUBLIC_DAYS),
  ]);
  const windows = uptime.get(monitor.id)!;
  // A heartbeat's 90 days are time not offline, as its other windows are (docs/statistics.md).
  const total90d = heartbeatDays.get(monitor.id)?.total ?? dailyUptime(daily.get(monitor.id) ?? [], now).total;
  return {
    status: monitor.status,
    in_maintenance: shownInMaintenance(monitor),
    uptime: { '24h': windows['24h'], '7d': windows['7d'], '30d': windows['30d'], '90d': total90d },
  };
}
