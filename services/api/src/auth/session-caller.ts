import type { RequestHandler } from 'express';
import { User, type DataSource } from '@uptime/db';

/**
 * The session way of authenticating: a session holding a `userId` (set only by a completed
 * sign-in) makes its user the caller. The user is read on each request so a changed role or a
 * deleted account takes effect at once; a session whose user is gone is destroyed.
 */
export function sessionCaller(ds: DataSource): RequestHandler {
  return async (req, _res, next) => {
    const userId = req.session?.userId;
    if (req.caller || userId === undefined) return next();
    const user = await ds.getRepository(User).findOne({ where: { id: userId }, select: { id: true, email: true, role: true } });
    if (!user) {
      await new Promise<void>((resolve, reject) => req.session.destroy((err: unknown) => (err ? reject(err) : resolve())));
      return next();
    }
    req.caller = { id: user.id, email: user.email, role: user.role, via: 'session' };
    next();
  };
}
