import type { RequestHandler } from 'express';
import { hashApiToken, isWellFormedApiToken, type DataSource } from '@uptime/db';
import { NotFoundError, UnauthorizedError } from '@uptime/errors';
import { requestedOrganization } from '../organizations/organization-header';
import type { TokenCache, TokenRow } from './token-cache';
import { tokenByHash, touchToken } from './tokens.repository';

const LAST_USED_PRECISION_MS = 60_000;

async function lookUpToken(ds: DataSource, cache: TokenCache, hash: string): Promise<TokenRow | undefined> {
  const cached = cache.get(hash);
  if (cached) return cached;
  const generation = cache.currentGeneration();
  const row = await tokenByHash(ds, hash);
  if (row) cache.set(hash, row, generation);
  return row;
}

/**
 * `Authorization: Bearer upt_…`: a token of neither known format (or with a wrong checksum) is a
 * 401 at once; otherwise the token's SHA-256 is looked up (remembered for a few seconds,
 * see TokenCache); revoked (deleted), expired or unknown tokens are a 401. Requests without the
 * header pass through for other schemes.
 */
export function bearerAuth(ds: DataSource, cache: TokenCache): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) return next(new UnauthorizedError('Malformed Authorization header; expected "Bearer <token>"'));
    // A mistyped or made-up token fails its checksum here, before it costs a lookup.
    if (!isWellFormedApiToken(match[1])) return next(new UnauthorizedError('Invalid or revoked API token'));
    const row = await lookUpToken(ds, cache, hashApiToken(match[1]));
    if (!row) return next(new UnauthorizedError('Invalid or revoked API token'));
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) return next(new UnauthorizedError('API token expired'));
    // Written at most once a minute per token, so reads do not each cost a write. The cached row
    // is marked first, so the requests arriving meanwhile do not write it as well.
    if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > LAST_USED_PRECISION_MS) {
      row.last_used_at = new Date();
      await touchToken(ds, row.token_id);
    }
    // A token acts in its own organization only; naming another is naming an unknown one.
    const asked = requestedOrganization(req);
    if (asked !== null && asked !== row.organization_id) return next(new NotFoundError('organization', asked));
    req.caller = {
      id: row.user_id,
      email: row.email,
      role: row.role,
      via: 'token',
      organizationId: row.organization_id,
      organizationRole: row.organization_role,
      scope: row.scope,
      tokenId: row.token_id,
    };
    next();
  };
}
