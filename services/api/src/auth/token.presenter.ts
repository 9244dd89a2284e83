import type { ApiToken, TokenScope } from '@uptime/db';

export interface TokenResponse {
  id: number;
  name: string;
  organization_id: number;
  scope: TokenScope;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export function toTokenResponse(token: ApiToken): TokenResponse {
  return {
    id: token.id,
    name: token.name,
    organization_id: token.organizationId,
    scope: token.scope,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}
