import { queryRows, type DataSource, type EntityManager } from '@uptime/db';

export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed';

export interface SubscriberRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  confirmed_at: Date | null;
  unsubscribed_at: Date | null;
  created_at: Date;
}

/** A published page, as a visitor reaches it by its slug. */
export async function findPublishedPage(db: DataSource, slug: string): Promise<{ id: number; slug: string; title: string; custom_domain: string | null } | null> {
  const [page] = await queryRows<{ id: number; slug: string; title: string; custom_domain: string | null }>(
    db.manager,
    `SELECT id, slug, title, custom_domain FROM status_pages WHERE slug = $1 AND published`,
    [slug],
  );
  return page ?? null;
}

/** A page by its slug, published or not. */
export async function findPageId(db: DataSource, slug: string): Promise<number | null> {
  const [page] = await queryRows<{ id: number }>(db.manager, `SELECT id FROM status_pages WHERE slug = $1`, [slug]);
  return page?.id ?? null;
}

/**
 * Asks for a subscription: a new address is `pending` with this confirmation secret (its hash)
 * for 24 hours; one pending or gone before gets the new secret and is pending again. A confirmed
 * address is left as it is: null, and no email is sent.
 */
export async function requestSubscription(
  em: EntityManager,
  pageId: number,
  email: string,
  secrets: { confirmHash: Buffer; unsubscribeToken: string },
): Promise<{ id: number; unsubscribe_token: string } | null> {
  const [row] = await queryRows<{ id: number; unsubscribe_token: string }>(
    em,
    `INSERT INTO status_page_subscribers (status_page_id, email, confirm_token_hash, confirm_expires_at, unsubscribe_token)
     VALUES ($1, $2, $3, now() + interval '24 hours', $4)
     ON CONFLICT (status_page_id, email) DO UPDATE
        SET status = 'pending', confirm_token_hash = EXCLUDED.confirm_token_hash,
            confirm_expires_at = EXCLUDED.confirm_expires_at, unsubscribed_at = NULL
      WHERE status_page_subscribers.status <> 'confirmed'
     RETURNING id, unsubscribe_token`,
    [pageId, email, secrets.confirmHash, secrets.unsubscribeToken],
  );
  return row ?? null;
}

/** Uses a confirmation secret once, within its 24 hours; false when it is unknown, used or expired. */
export async function confirmSubscription(db: DataSource, pageId: number, confirmHash: Buffer): Promise<boolean> {
  const rows = await queryRows(
    db.manager,
    `UPDATE status_page_subscribers
        SET status = 'confirmed', confirmed_at = now(), confirm_token_hash = NULL, confirm_expires_at = NULL
      WHERE status_page_id = $1 AND confirm_token_hash = $2 AND confirm_expires_at > now() AND status = 'pending'
      RETURNING id`,
    [pageId, confirmHash],
  );
  return rows.length > 0;
}

/**
 * The subscriber of this unsubscribe token leaves: `unsubscribed`, and every email not sent to
 * them yet is cancelled. Repeating it changes nothing. False when the token is unknown.
 */
export async function unsubscribe(em: EntityManager, pageId: number, token: string): Promise<boolean> {
  const [row] = await queryRows<{ id: number }>(
    em,
    `UPDATE status_page_subscribers
        SET status = 'unsubscribed', unsubscribed_at = COALESCE(unsubscribed_at, now()), confirmed_at = NULL,
            confirm_token_hash = NULL, confirm_expires_at = NULL
      WHERE status_page_id = $1 AND unsubscribe_token = $2
      RETURNING id`,
    [pageId, token],
  );
  if (!row) return false;
  await queryRows(
    em,
    `UPDATE notification_deliveries SET status = 'cancelled', claim_token = NULL, lease_until = NULL,
            last_error = 'not sent: the subscriber unsubscribed'
      WHERE subscriber_id = $1 AND status IN ('pending', 'ambiguous')`,
    [row.id],
  );
  return true;
}

/** A page's subscribers, newest first, with their total (owner's list). */
export async function listSubscribers(
  db: DataSource,
  pageId: number,
  limit: number,
  offset: number,
): Promise<{ items: SubscriberRow[]; total: number }> {
  const items = await queryRows<SubscriberRow>(
    db.manager,
    `SELECT id, email, status, confirmed_at, unsubscribed_at, created_at
       FROM status_page_subscribers WHERE status_page_id = $1
      ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [pageId, limit, offset],
  );
  const [{ total }] = await queryRows<{ total: number }>(
    db.manager,
    `SELECT count(*)::int AS total FROM status_page_subscribers WHERE status_page_id = $1`,
    [pageId],
  );
  return { items, total };
}

/** How many of a page's subscribers are confirmed (receive its emails). */
export async function countConfirmed(db: DataSource, pageId: number): Promise<number> {
  const [{ n }] = await queryRows<{ n: number }>(
    db.manager,
    `SELECT count(*)::int AS n FROM status_page_subscribers WHERE status_page_id = $1 AND status = 'confirmed'`,
    [pageId],
  );
  return n;
}

/** Removes the page's subscriber (their deliveries go with them); false when there is none. */
export async function deleteSubscriber(em: EntityManager, pageId: number, subscriberId: number): Promise<boolean> {
  const rows = await queryRows(em, `DELETE FROM status_page_subscribers WHERE id = $1 AND status_page_id = $2 RETURNING id`, [
    subscriberId,
    pageId,
  ]);
  return rows.length > 0;
}
