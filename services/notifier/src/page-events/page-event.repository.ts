import { queryRows, type DataSource, type MaintenanceSchedule, type Occurrence } from '@uptime/db';
import type { PageIncidentStatus } from '@uptime/probe';
import { CLAIM_SET, CLAIMABLE, type LeasedDelivery } from '../deliveries/delivery.repository';

interface PageEventBase {
  id: number;
  createdAt: Date;
  page: { id: number; slug: string; title: string; published: boolean; custom_domain: string | null };
}

/** What a page's subscribers are told of one event, as their email shows it. */
export type PageEvent =
  | (PageEventBase & {
      kind: 'incident_published' | 'incident_updated' | 'incident_resolved';
      incident: { id: number; title: string; impact: string };
      update: { status: PageIncidentStatus; message: string; createdAt: Date };
    })
  | (PageEventBase & {
      kind: 'maintenance_started';
      /** The occurrence that started, and the page's monitors its window covers, in page order. */
      maintenance: { name: string; startsAt: Date; endsAt: Date; monitors: string[] };
    });

interface PageEventRow {
  id: number;
  kind: PageEvent['kind'];
  created_at: Date;
  page_id: number;
  slug: string;
  page_title: string;
  published: boolean;
  custom_domain: string | null;
  incident_id: number | null;
  title: string | null;
  impact: string | null;
  status: PageIncidentStatus | null;
  message: string | null;
  update_created_at: Date | null;
  window_name: string | null;
  occurrence_starts_at: Date | null;
  occurrence_ends_at: Date | null;
  window_monitors: string[] | null;
}

/** The event with its page, and its incident and update or its maintenance window; null once any of them was deleted. */
export async function loadPageEvent(db: DataSource, eventId: number): Promise<PageEvent | null> {
  const [row] = await queryRows<PageEventRow>(
    db.manager,
    `SELECT e.id, e.kind, e.created_at, p.id AS page_id, p.slug, p.title AS page_title, p.published, p.custom_domain,
            i.id AS incident_id, i.title, i.impact, u.status, u.message, u.created_at AS update_created_at,
            w.name AS window_name, e.occurrence_starts_at, e.occurrence_ends_at,
            (SELECT array_agg(m.name ORDER BY spm.position)
               FROM status_page_monitors spm
               JOIN maintenance_window_monitors wm ON wm.monitor_id = spm.monitor_id AND wm.window_id = e.maintenance_window_id
               JOIN monitors m ON m.id = spm.monitor_id
              WHERE spm.status_page_id = p.id) AS window_monitors
       FROM status_page_events e
       JOIN status_pages p ON p.id = e.status_page_id
       LEFT JOIN status_page_incidents i ON i.id = e.incident_id
       LEFT JOIN status_page_incident_updates u ON u.id = e.update_id
       LEFT JOIN maintenance_windows w ON w.id = e.maintenance_window_id
      WHERE e.id = $1`,
    [eventId],
  );
  if (!row) return null;
  const base = {
    id: row.id,
    createdAt: row.created_at,
    page: { id: row.page_id, slug: row.slug, title: row.page_title, published: row.published, custom_domain: row.custom_domain },
  };
  if (row.kind === 'maintenance_started') {
    const maintenance = {
      name: row.window_name!,
      startsAt: row.occurrence_starts_at!,
      endsAt: row.occurrence_ends_at!,
      monitors: row.window_monitors ?? [],
    };
    return { ...base, kind: row.kind, maintenance };
  }
  return {
    ...base,
    kind: row.kind,
    incident: { id: row.incident_id!, title: row.title!, impact: row.impact! },
    update: { status: row.status!, message: row.message!, createdAt: row.update_created_at! },
  };
}

/** A maintenance window over monitors of a published page that has confirmed subscribers. */
export interface WatchedWindow extends MaintenanceSchedule {
  pageId: number;
  windowId: number;
}

/** The maintenance windows whose start some page's subscribers are to hear of. */
export async function listWatchedWindows(db: DataSource): Promise<WatchedWindow[]> {
  return queryRows<WatchedWindow>(
    db.manager,
    `SELECT DISTINCT p.id AS "pageId", w.id AS "windowId", w.starts_at AS "startsAt", w.duration_minutes AS "durationMinutes",
            w.repeat, w.weekdays, w.timezone
       FROM status_pages p
       JOIN status_page_monitors spm ON spm.status_page_id = p.id
       JOIN maintenance_window_monitors wm ON wm.monitor_id = spm.monitor_id
       JOIN maintenance_windows w ON w.id = wm.window_id
      WHERE p.published AND EXISTS (SELECT 1 FROM status_page_subscribers s WHERE s.status_page_id = p.id AND s.status = 'confirmed')`,
  );
}

/** Records that an occurrence started on a page, once: the id of the new event, or null when it was recorded before. */
export async function recordMaintenanceStart(db: DataSource, w: WatchedWindow, occurrence: Occurrence): Promise<number | null> {
  const [row] = await queryRows<{ id: number }>(
    db.manager,
    `INSERT INTO status_page_events (status_page_id, kind, maintenance_window_id, occurrence_starts_at, occurrence_ends_at)
     VALUES ($1, 'maintenance_started', $2, $3, $4)
     ON CONFLICT (status_page_id, maintenance_window_id, occurrence_starts_at) DO NOTHING RETURNING id`,
    [w.pageId, w.windowId, occurrence.startsAt, occurrence.endsAt],
  );
  return row?.id ?? null;
}

/**
 * Records one email of the event per subscriber confirmed when it happened (a published page's
 * only), once: the event is marked as fanned out in the same transaction, and the unique key
 * (event, subscriber) makes a repeat a no-op.
 */
export async function fanOutPageEvent(db: DataSource, event: PageEvent): Promise<void> {
  await db.transaction(async (tx) => {
    const [open] = await queryRows(tx, `SELECT id FROM status_page_events WHERE id = $1 AND fanned_out_at IS NULL FOR UPDATE`, [event.id]);
    if (!open) return;
    if (event.page.published) {
      await queryRows(
        tx,
        `INSERT INTO notification_deliveries (channel, recipient, kind, round, phase, page_event_id, subscriber_id)
         SELECT 'email', s.email, 'notice', 0, 'opened', $1, s.id
           FROM status_page_subscribers s
          WHERE s.status_page_id = $2 AND s.status = 'confirmed' AND s.confirmed_at <= $3
         ON CONFLICT (page_event_id, subscriber_id) WHERE page_event_id IS NOT NULL DO NOTHING`,
        [event.id, event.page.id, event.createdAt],
      );
    }
    await queryRows(tx, `UPDATE status_page_events SET fanned_out_at = now() WHERE id = $1`, [event.id]);
  });
}

/** One open email of an event, to be attempted. */
export interface OpenPageDelivery {
  id: number;
  eventId: number;
}

/** The event's emails not finished yet, in id order. */
export function listOpenPageDeliveries(db: DataSource, eventId: number): Promise<OpenPageDelivery[]> {
  return queryRows(
    db.manager,
    `SELECT id, page_event_id AS "eventId" FROM notification_deliveries
      WHERE page_event_id = $1 AND status IN ('pending', 'sending', 'ambiguous') ORDER BY id`,
    [eventId],
  );
}

/** Subscribers' emails some notifier should send now: due retries and expired leases, whatever became of their job. */
export function listDuePageDeliveries(db: DataSource, limit: number): Promise<OpenPageDelivery[]> {
  return queryRows(
    db.manager,
    `SELECT id, page_event_id AS "eventId" FROM notification_deliveries
      WHERE page_event_id IS NOT NULL AND status IN ('pending', 'sending', 'ambiguous')
        AND ((status <> 'sending' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now()))
      ORDER BY next_attempt_at LIMIT $1`,
    [limit],
  );
}

/** Events whose job never came (Redis refused it, or it was lost) after `graceMs`. */
export async function listUnannouncedPageEvents(db: DataSource, graceMs: number, limit: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db.manager,
    `SELECT id FROM status_page_events WHERE fanned_out_at IS NULL AND created_at < now() - $1 * interval '1 millisecond' ORDER BY created_at LIMIT $2`,
    [graceMs, limit],
  );
  return rows.map((r) => r.id);
}

/** A claimed subscriber email, with the link that lets its subscriber leave. */
export type ClaimedPageDelivery = LeasedDelivery & { unsubscribeToken: string };

interface PageClaimRow {
  id: number;
  recipient: string;
  claim_token: string;
  attempts: number;
  created_at: Date;
  unsubscribe_token: string;
  old_status: string;
}

/**
 * Takes a subscriber's email for `leaseMs` by one conditional UPDATE, as `claimDelivery` takes an
 * alert's, and only while its subscriber is still confirmed: one who left is sent nothing.
 */
export async function claimPageDelivery(
  db: DataSource,
  id: number,
  leaseMs: number,
  options: { onlyIfDue: boolean },
): Promise<ClaimedPageDelivery | null> {
  const [row] = await queryRows<PageClaimRow>(
    db.manager,
    `UPDATE notification_deliveries d
        SET ${CLAIM_SET}
       FROM (SELECT id, status FROM notification_deliveries WHERE id = $1 FOR UPDATE) o, status_page_subscribers s
      WHERE d.id = o.id AND s.id = d.subscriber_id AND s.status = 'confirmed'
        AND ${CLAIMABLE}
      RETURNING d.id, d.recipient, d.claim_token, d.attempts, d.created_at, s.unsubscribe_token, o.status AS old_status`,
    [id, leaseMs, options.onlyIfDue],
  );
  if (!row) return null;
  return {
    id: row.id,
    channel: 'email',
    recipient: row.recipient,
    notificationId: null,
    claimToken: row.claim_token,
    attempts: row.attempts,
    createdAt: row.created_at,
    changedAt: row.created_at,
    tookOverExpiredLease: row.old_status === 'sending',
    unsubscribeToken: row.unsubscribe_token,
  };
}

/** Cancels an open email whose subscriber is no longer confirmed (left, or removed by the owner); false otherwise. */
export async function cancelLeftSubscriberDelivery(db: DataSource, id: number): Promise<boolean> {
  const rows = await queryRows(
    db.manager,
    `UPDATE notification_deliveries d
        SET status = 'cancelled', claim_token = NULL, lease_until = NULL, last_error = 'not sent: the subscriber unsubscribed'
       FROM status_page_subscribers s
      WHERE d.id = $1 AND s.id = d.subscriber_id AND s.status <> 'confirmed'
        AND (d.status IN ('pending', 'ambiguous') OR (d.status = 'sending' AND d.lease_until < now()))
     RETURNING d.id`,
    [id],
  );
  return rows.length > 0;
}
