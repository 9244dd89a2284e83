import { ApiToken, entityFromRow, type DataSource, type EntityManager, type TokenScope } from '@uptime/db';
import type { PageRequest } from '../http/pagination';
import type { TokenRow } from './token-cache';

/** Stores a new token by its hash. */
export async function insertToken(
  ds: DataSource | EntityManager,
  fields: { userId: number; organizationId: number; scope: TokenScope; name: string; tokenHash: string; expiresAt: Date | null },
): Promise<ApiToken> {
  const [row]: Record<string, unknown>[] = await ds.query(
    `INSERT INTO api_tokens (user_id, organization_id, scope, name, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [fields.userId, fields.organizationId, fields.scope, fields.name, fields.tokenHash, fields.expiresAt],
  );
  return entityFromRow(ds, ApiToken, row!);
}

/** One page of the user's tokens, id order, and how many there are. */
export async function listUserTokens(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT * FROM api_tokens WHERE user_id = $1 ORDER BY id LIMIT $2 OFFSET $3`, [userId, page.limit, page.offset]) as Promise<
      Record<string, unknown>[]
    >,
    ds.query(`SELECT count(*)::int AS total FROM api_tokens WHERE user_id = $1`, [userId]) as Promise<{ total: number }[]>,
  ]);
  return { items: rows.map((row) => entityFromRow(ds, ApiToken, row)), total: count?.total ?? 0 };
}

/** Deletes the user's token; false when they have none with this id. */
/** Deletes the user's token; answers the organization it acted in, null when the user has no such token. */
export async function deleteUserToken(em: EntityManager, userId: number, tokenId: number): Promise<number | null> {
  const [deleted]: [{ organization_id: number }[], number] = await em.query(
    `DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING organization_id`,
    [tokenId, userId],
  );
  return deleted[0]?.organization_id ?? null;
}

/** The token with this hash and its user, as a request authenticates with it; undefined when unknown. */
export async function tokenByHash(ds: DataSource, hash: string): Promise<TokenRow | undefined> {
  const rows: TokenRow[] = await ds.query(
    `SELECT t.id AS token_id, u.id AS user_id, u.email, u.role, t.expires_at, t.last_used_at,
            t.organization_id, m.role AS organization_role, t.scope
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       JOIN organization_members m ON m.organization_id = t.organization_id AND m.user_id = t.user_id
      WHERE t.token_hash = $1`,
    [hash],
  );
  return rows[0];
}

/** Marks the token used now. */
export async function touchToken(ds: DataSource, tokenId: number): Promise<void> {
  await ds.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [tokenId]);
}
