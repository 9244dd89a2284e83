import { DAY_MS, generateApiToken, hashApiToken, type ApiToken, type DataSource, type TokenScope } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import type { TokenCache } from './token-cache';
import { deleteUserToken, insertToken, listUserTokens } from './tokens.repository';

export interface CreatedToken {
  token: ApiToken;
  plaintext: string;
}

/** What a new token is: its owner, the organization it acts in, its scope, name and lifetime. */
export interface NewToken {
  userId: number;
  organizationId: number;
  scope: TokenScope;
  name: string;
  expiresInDays?: number;
}

export async function createToken(ds: DataSource, { expiresInDays, ...fields }: NewToken): Promise<CreatedToken> {
  const plaintext = generateApiToken();
  const token = await insertToken(ds, {
    ...fields,
    tokenHash: hashApiToken(plaintext),
    expiresAt: expiresInDays ? new Date(Date.now() + expiresInDays * DAY_MS) : null,
  });
  return { token, plaintext };
}

/** Whose tokens a request may see and revoke: its user's, in the organization it acts in. */
export interface TokenHolder {
  userId: number;
  organizationId: number;
}

export function listTokens(ds: DataSource, holder: TokenHolder, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  return listUserTokens(ds, holder.userId, holder.organizationId, page);
}

/**
 * Revokes by deleting: a revoked token can never authenticate again, in this process from the
 * next request on (it is dropped from the process's token cache).
 */
export async function revokeToken(ds: DataSource, tokenCache: TokenCache, holder: TokenHolder, tokenId: number): Promise<void> {
  if (!(await deleteUserToken(ds, holder.userId, holder.organizationId, tokenId))) throw new NotFoundError('token', tokenId);
  tokenCache.forgetToken(tokenId);
}
