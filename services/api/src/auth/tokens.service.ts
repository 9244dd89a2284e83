import { DAY_MS, generateApiToken, hashApiToken, type ApiToken, type DataSource, type TokenScope } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import type { PageRequest } from '../http/pagination';
import type { TokenCache } from './token-cache';
import { deleteUserToken, insertToken, listUserTokens } from './tokens.repository';
import { recordAudit, type AuditActor } from '../audit/audit';

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

/** Creates the token; its audit entry (names of the fields sent, never the token) goes to the token's organization. */
export async function createToken(
  ds: DataSource,
  { expiresInDays, ...fields }: NewToken,
  actor: AuditActor,
  changedFields: readonly string[],
): Promise<CreatedToken> {
  const plaintext = generateApiToken();
  const token = await ds.transaction(async (em) => {
    const inserted = await insertToken(em, {
      ...fields,
      tokenHash: hashApiToken(plaintext),
      expiresAt: expiresInDays ? new Date(Date.now() + expiresInDays * DAY_MS) : null,
    });
    await recordAudit(em, { organizationId: fields.organizationId, actor, action: 'token.create', resourceId: inserted.id, changedFields });
    return inserted;
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
export async function revokeToken(ds: DataSource, tokenCache: TokenCache, holder: TokenHolder, tokenId: number, actor: AuditActor): Promise<void> {
  await ds.transaction(async (em) => {
    if (!(await deleteUserToken(em, holder.userId, holder.organizationId, tokenId))) throw new NotFoundError('token', tokenId);
    await recordAudit(em, { organizationId: holder.organizationId, actor, action: 'token.revoke', resourceId: tokenId });
  });
  tokenCache.forgetToken(tokenId);
}
