import { queryRows, type DataSource, type NotificationErrorDetails, type NotificationStatus, type NotificationType } from '@uptime/db';
import { ConflictError, NotFoundError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import type { NotificationFilters } from './notifications.query';

/** A notification with the name and URL of its monitor, as read for the API. */
export interface NotificationView {
  id: number;
  monitorId: number;
  monitorName: string;
  monitorUrl: string;
  type: NotificationType;
  status: NotificationStatus;
  message: string;
  startedAt: Date;
  resolvedAt: Date | null;
  duration: number | null;
  notificationMethod: 'email';
  acknowledged: boolean;
  acknowledgedAt: Date | null;
  emailSentAt: Date | null;
  errorDetails: NotificationErrorDetails | null;
  createdAt: Date;
  /** One of its deliveries was sent again after an attempt that may have arrived. */
  possibleDuplicate: boolean;
  /** Recorded but sent to nobody: a monitor it depends on was offline (docs/alert-rules.md). */
  suppressed: boolean;
  suppressedBy: number[];
}

export interface NotificationAcknowledgement {
  id: number;
  acknowledged: boolean;
  acknowledgedAt: Date | null;
}

export interface NotificationResolution {
  id: number;
  status: NotificationStatus;
  resolvedAt: Date | null;
  duration: number | null;
}

/** Which of the caller's notifications a list shows: the public filters plus the /recent window. */
export interface NotificationScope extends NotificationFilters {
  startedWithinHours?: number;
}

export interface NotificationPage {
  items: NotificationView[];
  total: number;
}

// Monitors are joined rather than loaded per row: one query per page, and monitor_id is a
// NOT NULL foreign key with ON DELETE CASCADE, so the inner join never drops a notification.
const SELECT_VIEW = `
  SELECT n.id, n.monitor_id AS "monitorId", m.name AS "monitorName", m.url AS "monitorUrl",
         n.type, n.status, n.message, n.started_at AS "startedAt", n.resolved_at AS "resolvedAt",
         n.duration, n.notification_method AS "notificationMethod", n.acknowledged,
         n.acknowledged_at AS "acknowledgedAt", n.email_sent_at AS "emailSentAt",
         n.error_details AS "errorDetails", n.created_at AS "createdAt",
         n.suppressed, n.suppressed_by AS "suppressedBy",
         EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id AND d.possible_duplicate) AS "possibleDuplicate"
    FROM notifications n
    JOIN monitors m ON m.id = n.monitor_id`;

/** `WHERE` of a list, always scoped to the user (the per-user indexes lead with user_id). */
function whereOf(userId: number, scope: NotificationScope): { sql: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const conditions = ['n.user_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(condition(`$${params.length}`));
  };
  if (scope.monitorId !== undefined) add((p) => `n.monitor_id = ${p}`, scope.monitorId);
  if (scope.type !== undefined) add((p) => `n.type = ${p}`, scope.type);
  if (scope.status !== undefined) add((p) => `n.status = ${p}`, scope.status);
  if (scope.since !== undefined) add((p) => `n.started_at >= ${p}`, scope.since);
  // The window is computed by Postgres so it shares a clock with the started_at it compares.
  if (scope.startedWithinHours !== undefined) add((p) => `n.started_at >= now() - ${p} * interval '1 hour'`, scope.startedWithinHours);
  return { sql: conditions.join(' AND '), params };
}

/** The caller's notifications, newest first (id descending), one page and the total. */
export async function listNotifications(ds: DataSource, userId: number, scope: NotificationScope, page: PageRequest): Promise<NotificationPage> {
  const where = whereOf(userId, scope);
  const n = where.params.length;
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_VIEW} WHERE ${where.sql} ORDER BY n.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [...where.params, page.limit, page.offset]) as Promise<NotificationView[]>,
    ds.query(`SELECT count(*)::int AS total FROM notifications n WHERE ${where.sql}`, where.params) as Promise<{ total: number }[]>,
  ]);
  return { items, total: counted[0]?.total ?? 0 };
}

export function listActiveNotifications(ds: DataSource, userId: number, page: PageRequest): Promise<NotificationPage> {
  return listNotifications(ds, userId, { status: 'active' }, page);
}

/** Notifications that started within the last 24 hours (docs/notifications.md). */
export function listRecentNotifications(ds: DataSource, userId: number, page: PageRequest): Promise<NotificationPage> {
  return listNotifications(ds, userId, { startedWithinHours: 24 }, page);
}

/** The caller's notification, or 404 exactly as for a missing one (docs/errors.md). */
export async function getNotification(ds: DataSource, userId: number, id: number): Promise<NotificationView> {
  const rows: NotificationView[] = await ds.query(`${SELECT_VIEW} WHERE n.id = $1 AND n.user_id = $2`, [id, userId]);
  const found = rows[0];
  if (!found) throw new NotFoundError('notification', id);
  return found;
}

/**
 * Marks the notification acknowledged. COALESCE keeps the first acknowledgement time, so
 * repeating the call (or two racing calls) is harmless (docs/notifications.md). Any status is allowed.
 */
export async function acknowledgeNotification(ds: DataSource, userId: number, id: number): Promise<NotificationAcknowledgement> {
  const rows = await queryRows<NotificationAcknowledgement>(
    ds.manager,
    `UPDATE notifications SET acknowledged = true, acknowledged_at = COALESCE(acknowledged_at, now())
      WHERE id = $1 AND user_id = $2
      RETURNING id, acknowledged, acknowledged_at AS "acknowledgedAt"`,
    [id, userId],
  );
  const done = rows[0];
  if (!done) throw new NotFoundError('notification', id);
  return done;
}

/**
 * Resolves an active notification by hand. One conditional UPDATE decides it: of two concurrent
 * calls, the second waits on the row lock, then sees status 'resolved' and matches nothing.
 * `resolved_manually` tells the notifier not to send a recovery for this downtime (docs/notifications.md).
 */
export async function resolveNotification(ds: DataSource, userId: number, id: number): Promise<NotificationResolution> {
  const rows = await queryRows<NotificationResolution>(
    ds.manager,
    `UPDATE notifications
        SET status = 'resolved', resolved_at = now(), resolved_manually = true,
            duration = GREATEST(0, floor(extract(epoch FROM now() - started_at)))::int
      WHERE id = $1 AND user_id = $2 AND status = 'active'
      RETURNING id, status, resolved_at AS "resolvedAt", duration`,
    [id, userId],
  );
  const done = rows[0];
  if (done) return done;
  // Nothing matched: tell "not yours or missing" (404) apart from "already resolved" (409).
  const existing: { status: NotificationStatus }[] = await ds.query(`SELECT status FROM notifications WHERE id = $1 AND user_id = $2`, [id, userId]);
  if (existing.length === 0) throw new NotFoundError('notification', id);
  throw new ConflictError('INVALID_STATE', `Notification ${id} is already resolved`);
}
