import { ApiToken, type DataSource } from '@uptime/db';
import type { PageRequest } from '../http/pagination';
import type { TokenRow } from './token-cache';

/** Stores a new token by its hash. */
export function insertToken(ds: DataSource, fields: { userId: number; name: string; tokenHash: string; expiresAt: Date | null }): Promise<ApiToken> {
  const repo = ds.getRepository(ApiToken);
  return repo.save(repo.create(fields));
}

/** One page of the user's tokens, id order, and how many there are. */
export async function listUserTokens(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  const [items, total] = await ds
    .getRepository(ApiToken)
    .findAndCount({ where: { userId }, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  return { items, total };
}

/** Deletes the user's token; false when they have none with this id. */
export async function deleteUserToken(ds: DataSource, userId: number, tokenId: number): Promise<boolean> {
  const result = await ds.getRepository(ApiToken).delete({ id: tokenId, userId });
  return Boolean(result.affected);
}

/** The token with this hash and its user, as a request authenticates with it; undefined when unknown. */
export async function tokenByHash(ds: DataSource, hash: string): Promise<TokenRow | undefined> {
  const rows: TokenRow[] = await ds.query(
    `SELECT t.id AS token_id, u.id AS user_id, u.email, u.role, t.expires_at, t.last_used_at
       FROM api_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1`,
    [hash],
  );
  return rows[0];
}

/** Marks the token used now. */
export async function touchToken(ds: DataSource, tokenId: number): Promise<void> {
  await ds.query('UPDATE api_tokens SET last_used_at = now() WHERE id = $1', [tokenId]);
}
