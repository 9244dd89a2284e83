import { NOTIFICATION_DELIVERY_FLAGS, queryRows, type DataSource, type EntityManager, type NotificationErrorDetails, type NotificationStatus, type NotificationType } from '@uptime/db';
import type { PageRequest } from '../http/pagination';
import type { NotificationFilters } from './notifications.params';

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
  emailLoggedOnly: boolean;
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
         ${NOTIFICATION_DELIVERY_FLAGS.possibleDuplicate} AS "possibleDuplicate",
         ${NOTIFICATION_DELIVERY_FLAGS.emailLoggedOnly} AS "emailLoggedOnly"
    FROM notifications n
    JOIN monitors m ON m.id = n.monitor_id`;

/** `WHERE` of a list, always scoped to the organization (the per-organization indexes lead with organization_id). */
function whereOf(organizationId: number, scope: NotificationScope): { sql: string; params: unknown[] } {
  const params: unknown[] = [organizationId];
  const conditions = ['n.organization_id = $1'];
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

/** The user's notifications in scope, newest first (id descending), one page and the total. */
export async function selectNotifications(ds: DataSource, organizationId: number, scope: NotificationScope, page: PageRequest): Promise<NotificationPage> {
  const where = whereOf(organizationId, scope);
  const n = where.params.length;
  const [items, counted] = await Promise.all([
    ds.query(`${SELECT_VIEW} WHERE ${where.sql} ORDER BY n.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [...where.params, page.limit, page.offset]) as Promise<NotificationView[]>,
    ds.query(`SELECT count(*)::int AS total FROM notifications n WHERE ${where.sql}`, where.params) as Promise<{ total: number }[]>,
  ]);
  return { items, total: counted[0]?.total ?? 0 };
}

/** The user's notification, if there is one. */
export async function selectNotification(ds: DataSource, organizationId: number, id: number): Promise<NotificationView | undefined> {
  const rows: NotificationView[] = await ds.query(`${SELECT_VIEW} WHERE n.id = $1 AND n.organization_id = $2`, [id, organizationId]);
  return rows[0];
}

/**
 * Marks the user's notification acknowledged; undefined when there is none. COALESCE keeps the
 * first acknowledgement time, so repeating the call (or two racing calls) is harmless.
 */
export async function markAcknowledged(em: EntityManager, organizationId: number, id: number): Promise<NotificationAcknowledgement | undefined> {
  const rows = await queryRows<NotificationAcknowledgement>(
    em,
    `UPDATE notifications SET acknowledged = true, acknowledged_at = COALESCE(acknowledged_at, now())
      WHERE id = $1 AND organization_id = $2
      RETURNING id, acknowledged, acknowledged_at AS "acknowledgedAt"`,
    [id, organizationId],
  );
  return rows[0];
}

/**
 * Queues the message that the downtime notification was acknowledged for each attached channel
 * whose service keeps an incident of its own (`types`: PagerDuty's acknowledge; docs/channels.md),
 * the downtime was told to, while the notification is active: a delivery of phase `acknowledged`, which the notifiers' sweep
 * sends on the one delivery path. The deliveries' unique key makes a repeated acknowledgement a no-op.
 */
export async function queueAcknowledgedDeliveries(em: EntityManager, id: number, types: readonly string[]): Promise<void> {
  await em.query(
    `INSERT INTO notification_deliveries (notification_id, channel, recipient, kind, round, phase, channel_id)
     SELECT n.id, c.type, 'channel:' || c.id, 'notice', 0, 'acknowledged', c.id
       FROM notifications n
       JOIN monitor_channels mc ON mc.monitor_id = n.monitor_id
       JOIN channels c ON c.id = mc.channel_id
      WHERE n.id = $1 AND n.type = 'downtime' AND n.status = 'active' AND c.type = ANY($2)
        -- Only a channel the downtime was told to: its service has the incident to acknowledge.
        AND EXISTS (SELECT 1 FROM notification_deliveries t WHERE t.notification_id = n.id AND t.channel_id = c.id AND t.phase = 'opened' AND t.kind = 'notice')
     ON CONFLICT (notification_id, kind, round, phase, channel, recipient) DO NOTHING`,
    [id, types],
  );
}

/**
 * Resolves the user's notification if it is active; undefined otherwise. One conditional UPDATE
 * decides it: of two concurrent calls, the second waits on the row lock, then sees status
 * 'resolved' and matches nothing. `resolved_manually` tells the notifier not to send a recovery.
 */
export async function markResolved(em: EntityManager, organizationId: number, id: number): Promise<NotificationResolution | undefined> {
  const rows = await queryRows<NotificationResolution>(
    em,
    `UPDATE notifications
        SET status = 'resolved', resolved_at = now(), resolved_manually = true,
            duration = GREATEST(0, floor(extract(epoch FROM now() - started_at)))::int
      WHERE id = $1 AND organization_id = $2 AND status = 'active'
      RETURNING id, status, resolved_at AS "resolvedAt", duration`,
    [id, organizationId],
  );
  return rows[0];
}

/** The status of the user's notification, if there is one. */
export async function statusOfNotification(ds: DataSource, organizationId: number, id: number): Promise<NotificationStatus | undefined> {
  const rows: { status: NotificationStatus }[] = await ds.query(`SELECT status FROM notifications WHERE id = $1 AND organization_id = $2`, [id, organizationId]);
  return rows[0]?.status;
}
