import type { RequestHandler } from 'express';
import type { DataSource } from '@uptime/db';
import { NotFoundError } from '@uptime/errors';
import { findSessionCaller } from '../organizations/members.repository';
import { requestedOrganization } from '../organizations/organization-header';

/**
 * The session way of authenticating: a session holding a `userId` (set only by a completed
 * sign-in) makes its user the caller, acting in the organization `X-Organization-Id` names (or
 * their personal one). The user and their membership are read on each request, so a changed role,
 * a removed member or a deleted account takes effect at once; a session whose user is gone is
 * destroyed.
 */
export function sessionCaller(ds: DataSource): RequestHandler {
  return async (req, _res, next) => {
    const userId = req.session?.userId;
    if (req.caller || userId === undefined) return next();
    const organizationId = requestedOrganization(req);
    const user = await findSessionCaller(ds, userId, organizationId);
    if (!user) {
      await new Promise<void>((resolve, reject) => req.session.destroy((err: unknown) => (err ? reject(err) : resolve())));
      return next();
    }
    // Not a member (any more): the organization is as unknown to them as one that does not exist.
    if (!user.membership) return next(new NotFoundError('organization', organizationId ?? undefined));
    req.caller = {
      id: user.id,
      email: user.email,
      role: user.role,
      via: 'session',
      organizationId: user.membership.organizationId,
      organizationRole: user.membership.role,
      scope: 'write',
      tokenId: null,
    };
    next();
  };
}
