import { Router, type Request, type Response } from 'express';
import type { DataSource } from '@uptime/db';
import { UnauthorizedError } from '@uptime/errors';
import type { Config } from '@uptime/config';
import { metaFor, sendData, sendMessage } from '../http/envelope';
import { callerOf } from './caller';
import { linkedProviders } from './identities.service';
import { SESSION_COOKIE, sessionCookieOptions } from './session';
import { toUserResponse } from './user.presenter';
import { findUser } from './users.repository';
import { organizationOfMember } from '../organizations/organization-access';

/** Refresh and logout act on the session cookie; a bearer token is revoked with DELETE /auth/tokens/{id}. */
function requireSession(req: Request): void {
  if (req.session?.userId === undefined) {
    throw new UnauthorizedError('This action needs a session cookie; API tokens are revoked with DELETE /auth/tokens/{id}');
  }
}

const promised = (run: (done: (err?: unknown) => void) => void): Promise<void> =>
  new Promise((resolve, reject) => run((err) => (err ? reject(err) : resolve())));

/** `GET /auth/user`, `POST /auth/refresh`, `POST /auth/logout` (docs/security.md); need a caller. */
export function sessionRouter({ ds, config }: { ds: DataSource; config: Config }): Router {
  const router = Router();

  router.get('/user', async (req, res) => {
    const caller = callerOf(req);
    const user = await findUser(ds, caller.id);
    if (!user) throw new UnauthorizedError('The signed-in user no longer exists');
    const provider = caller.via === 'session' ? (req.session.provider ?? null) : null;
    const organization = await organizationOfMember(ds, caller.organizationId, caller.id);
    // The role this request acts with (a token's is the one its permissions were checked against).
    sendData(res, toUserResponse(user, provider, await linkedProviders(ds, user.id), { id: organization.id, name: organization.name, role: caller.organizationRole }));
  });

  router.post('/refresh', async (req, res: Response) => {
    requireSession(req);
    req.session.touch();
    // A changed value makes express-session send the cookie again with the new expiry.
    req.session.refreshedAt = Date.now();
    await promised((done) => req.session.save(done));
    const expiresAt = req.session.cookie.expires ?? new Date(Date.now() + config.session.ttlSeconds * 1000);
    res.status(200).json({ message: 'Session extended', expires_at: expiresAt.toISOString(), meta: metaFor(res) });
  });

  router.post('/logout', async (req, res) => {
    requireSession(req);
    await promised((done) => req.session.destroy(done));
    const { path, httpOnly, sameSite, secure } = sessionCookieOptions(config);
    res.clearCookie(SESSION_COOKIE, { path, httpOnly, sameSite, secure });
    sendMessage(res, 'Signed out');
  });

  return router;
}
