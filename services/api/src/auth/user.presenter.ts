import type { OAuthProvider, OrganizationRole, User } from '@uptime/db';

/** The organization a request acts in (docs/organizations.md, "Tenancy"), with the caller's role there. */
export interface ActingOrganization {
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
  /** The organization this request acts in: the token's, else the session's X-Organization-Id, else the personal one. */
  organization: ActingOrganization;
}

export function toUserResponse(user: User, provider: OAuthProvider | null, providers: OAuthProvider[], organization: ActingOrganization): UserResponse {
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
