import type { DataSource } from '@uptime/db';
import { ACKNOWLEDGING_CHANNEL_TYPES } from '@uptime/probe';
import { ConflictError, NotFoundError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import { recordAudit, type AuditActor } from '../audit/audit';
import {
  markAcknowledged,
  queueAcknowledgedDeliveries,
  markResolved,
  selectNotification,
  selectNotifications,
  statusOfNotification,
  type NotificationAcknowledgement,
  type NotificationPage,
  type NotificationResolution,
  type NotificationScope,
  type NotificationView,
} from './notifications.repository';

/** The caller's notifications, newest first (id descending), one page and the total. */
export function listNotifications(ds: DataSource, organizationId: number, scope: NotificationScope, page: PageRequest): Promise<NotificationPage> {
  return selectNotifications(ds, organizationId, scope, page);
}

export function listActiveNotifications(ds: DataSource, organizationId: number, page: PageRequest): Promise<NotificationPage> {
  return selectNotifications(ds, organizationId, { status: 'active' }, page);
}

/** Notifications that started within the last 24 hours (docs/notifications.md). */
export function listRecentNotifications(ds: DataSource, organizationId: number, page: PageRequest): Promise<NotificationPage> {
  return selectNotifications(ds, organizationId, { startedWithinHours: 24 }, page);
}

/** The caller's notification, or 404 exactly as for a missing one (docs/errors.md). */
export async function getNotification(ds: DataSource, organizationId: number, id: number): Promise<NotificationView> {
  const found = await selectNotification(ds, organizationId, id);
  if (!found) throw new NotFoundError('notification', id);
  return found;
}

/** Marks the notification acknowledged, again harmlessly; any status is allowed (docs/notifications.md). */
export async function acknowledgeNotification(ds: DataSource, organizationId: number, id: number, actor: AuditActor): Promise<NotificationAcknowledgement> {
  return ds.transaction(async (em) => {
    const done = await markAcknowledged(em, organizationId, id);
    if (!done) throw new NotFoundError('notification', id);
    await queueAcknowledgedDeliveries(em, id, ACKNOWLEDGING_CHANNEL_TYPES);
    await recordAudit(em, { organizationId, actor, action: 'notification.acknowledge', resourceId: id });
    return done;
  });
}

/** Resolves an active notification by hand; no recovery is sent for it (docs/notifications.md). */
export async function resolveNotification(ds: DataSource, organizationId: number, id: number, actor: AuditActor): Promise<NotificationResolution> {
  const done = await ds.transaction(async (em) => {
    const resolved = await markResolved(em, organizationId, id);
    if (resolved) await recordAudit(em, { organizationId, actor, action: 'notification.resolve', resourceId: id });
    return resolved;
  });
  if (done) return done;
  // Nothing matched: tell "not yours or missing" (404) apart from "already resolved" (409).
  if ((await statusOfNotification(ds, organizationId, id)) === undefined) throw new NotFoundError('notification', id);
  throw new ConflictError('INVALID_STATE', `Notification ${id} is already resolved`);
}
