import type { DataSource, EntityManager } from '@uptime/db';

/** Links stay in the table this long after expiring (for a look at recent sign-ins), then go. */
const KEEP_EXPIRED = '1 day';

/** Stores a new link by its hash, and drops links long expired. */
export async function insertLoginLink(ds: DataSource, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await ds.transaction(async (em) => {
    await em.query(`DELETE FROM login_links WHERE expires_at < now() - interval '${KEEP_EXPIRED}'`);
    await em.query(`INSERT INTO login_links (user_id, token_hash, expires_at) VALUES ($1, $2, $3)`, [userId, tokenHash, expiresAt]);
  });
}

/**
 * Marks the unused, unexpired link with this hash used and returns its user id; null when there
 * is none. One statement: two requests with the same link cannot both get a user.
 */
export async function consumeLoginLink(em: EntityManager, tokenHash: string): Promise<number | null> {
  const rows = (await em.query(
    `UPDATE login_links SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [tokenHash],
  )) as [{ user_id: number }[], number];
  return rows[0][0]?.user_id ?? null;
}
