import type { OAuthProvider, OrganizationRole, User } from '@uptime/db';

/** The organization a request acts in, and the caller's role there (docs/organizations.md). */
export interface CurrentOrganization {
  id: number;
  name: string;
  role: OrganizationRole;
}

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
  /** The organization this request acts in: the token's, or the session's X-Organization-Id, else the personal one. */
  organization: CurrentOrganization;
}

export function toUserResponse(user: User, provider: OAuthProvider | null, providers: OAuthProvider[], organization: CurrentOrganization): UserResponse {
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
    organization,
  };
}
