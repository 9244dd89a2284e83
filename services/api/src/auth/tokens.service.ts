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

export function listTokens(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  return listUserTokens(ds, userId, page);
}

/**
 * Revokes by deleting: a revoked token can never authenticate again, in this process from the
 * next request on (it is dropped from the process's token cache).
 */
export async function revokeToken(ds: DataSource, tokenCache: TokenCache, userId: number, tokenId: number): Promise<void> {
  if (!(await deleteUserToken(ds, userId, tokenId))) throw new NotFoundError('token', tokenId);
  tokenCache.forgetToken(tokenId);
}
