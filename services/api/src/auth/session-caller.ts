import type { RequestHandler } from 'express';
import type { DataSource } from '@uptime/db';
import { findCallerUser } from './users.repository';

/**
 * The session way of authenticating: a session holding a `userId` (set only by a completed
 * sign-in) makes its user the caller. The user is read on each request so a changed role or a
 * deleted account takes effect at once; a session whose user is gone is destroyed.
 */
export function sessionCaller(ds: DataSource): RequestHandler {
  return async (req, _res, next) => {
    const userId = req.session?.userId;
    if (req.caller || userId === undefined) return next();
    const user = await findCallerUser(ds, userId);
    if (!user) {
      await new Promise<void>((resolve, reject) => req.session.destroy((err: unknown) => (err ? reject(err) : resolve())));
      return next();
    }
    req.caller = { id: user.id, email: user.email, role: user.role, via: 'session' };
    next();
  };
}
