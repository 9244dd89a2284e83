import type { Request } from 'express';
import { UnauthorizedError } from '@uptime/errors';
import type { OrganizationRole, TokenScope, UserRole } from '@uptime/db';

/** Who is calling: set by the authentication middleware. */
export interface Caller {
  id: number;
  email: string;
  role: UserRole;
  /** How the caller authenticated. */
  via: 'token' | 'session';
  /**
   * The organization the request acts in (docs/organizations.md): a token's own, or for a
   * session the one `X-Organization-Id` names, else the user's personal organization.
   */
  organizationId: number;
  /** The caller's role in that organization, read on this request. */
  organizationRole: OrganizationRole;
  /** A token's scope; a session may write. */
  scope: TokenScope;
  /** The token authenticating the request; null for a session. */
  tokenId: number | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      caller?: Caller;
    }
  }
}

export function callerOf(req: Request): Caller {
  if (!req.caller) throw new UnauthorizedError();
  return req.caller;
}

/** Who makes a new resource, and the organization it goes into (docs/organizations.md). */
export interface Creator {
  userId: number;
  organizationId: number;
}

export function creatorOf(req: Request): Creator {
  const caller = callerOf(req);
  return { userId: caller.id, organizationId: caller.organizationId };
}
