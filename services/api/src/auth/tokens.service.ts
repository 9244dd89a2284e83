import { ApiToken, DAY_MS, generateApiToken, hashApiToken, type DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import type { TokenCache } from './token-cache';

export interface CreatedToken {
  token: ApiToken;
  plaintext: string;
}

export async function createToken(ds: DataSource, userId: number, name: string, expiresInDays?: number): Promise<CreatedToken> {
  const plaintext = generateApiToken();
  const repo = ds.getRepository(ApiToken);
  const token = await repo.save(
    repo.create({
      userId,
      name,
      tokenHash: hashApiToken(plaintext),
      expiresAt: expiresInDays ? new Date(Date.now() + expiresInDays * DAY_MS) : null,
    }),
  );
  return { token, plaintext };
}

export async function listTokens(ds: DataSource, userId: number, page: PageRequest): Promise<{ items: ApiToken[]; total: number }> {
  const [items, total] = await ds
    .getRepository(ApiToken)
    .findAndCount({ where: { userId }, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  return { items, total };
}

/**
 * Revokes by deleting: a revoked token can never authenticate again, in this process from the
 * next request on (it is dropped from the process's token cache).
 */
export async function revokeToken(ds: DataSource, tokenCache: TokenCache, userId: number, tokenId: number): Promise<void> {
  const result = await ds.getRepository(ApiToken).delete({ id: tokenId, userId });
  if (!result.affected) throw new NotFoundError('token', tokenId);
  tokenCache.forgetToken(tokenId);
}
