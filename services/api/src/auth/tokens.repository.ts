import { ApiToken, entityFromRow, queryAffected, type DataSource, type EntityManager, type TokenScope } from '@uptime/db';
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

/**
 * One page of the user's tokens acting in `organizationId`, id order, and how many there are: a
 * caller sees only the tokens of the organization it acts in (docs/organizations.md).
 */
export async function listUserTokens(ds: DataSource, userId: number, organizationId: number, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    ds.query(`SELECT * FROM api_tokens WHERE organization_id = $1 AND user_id = $2 ORDER BY id LIMIT $3 OFFSET $4`, [organizationId, userId, page.limit, page.offset]) as Promise<
      Record<string, unknown>[]
    >,
    ds.query(`SELECT count(*)::int AS total FROM api_tokens WHERE organization_id = $1 AND user_id = $2`, [organizationId, userId]) as Promise<{ total: number }[]>,
  ]);
  return { items: rows.map((row) => entityFromRow(ds, ApiToken, row)), total: count?.total ?? 0 };
}

/** Deletes the user's token acting in `organizationId`; false when they have none with this id there. */
export async function deleteUserToken(em: EntityManager, userId: number, organizationId: number, tokenId: number): Promise<boolean> {
  return (await queryAffected(em, `DELETE FROM api_tokens WHERE id = $1 AND organization_id = $2 AND user_id = $3`, [tokenId, organizationId, userId])) > 0;
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
