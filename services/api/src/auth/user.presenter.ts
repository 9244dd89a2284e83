import type { OAuthProvider, User } from '@uptime/db';

export interface UserResponse {
  id: number;
  email: string;
  name: string | null;
  /** The provider of the current session; null for a bearer token (a token has no provider). */
  provider: OAuthProvider | null;
  /** Every provider linked to the user. */
  providers: OAuthProvider[];
  avatar_url: string | null;
  role: User['role'];
  created_at: string;
  last_login: string | null;
}

export function toUserResponse(user: User, provider: OAuthProvider | null, providers: OAuthProvider[]): UserResponse {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    provider,
    providers,
    avatar_url: user.avatarUrl,
    role: user.role,
    created_at: user.createdAt.toISOString(),
    last_login: user.lastLogin?.toISOString() ?? null,
  };
}
