import type { ApiToken } from '@uptime/db';

export interface TokenResponse {
  id: number;
  name: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export function toTokenResponse(token: ApiToken): TokenResponse {
  return {
    id: token.id,
    name: token.name,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}
