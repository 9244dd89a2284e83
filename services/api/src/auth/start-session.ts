import type { Request } from 'express';
import type { OAuthProvider } from '@uptime/db';

const promised = (run: (done: (err?: unknown) => void) => void): Promise<void> =>
  new Promise((resolve, reject) => run((err) => (err ? reject(err) : resolve())));

/**
 * Signs the browser in as `userId` on a new session id: whatever id existed before is dropped
 * (no fixation). Every way of signing in ends here (OAuth callback, login link). `provider` is
 * the OAuth provider used, none for a login link.
 */
export async function startSession(req: Request, userId: number, provider?: OAuthProvider): Promise<void> {
  await promised((done) => req.session.regenerate(done));
  req.session.userId = userId;
  if (provider !== undefined) req.session.provider = provider;
  await promised((done) => req.session.save(done));
}

/**
 * After a failed sign-in the session that only carried the login's state is dropped, so the
 * answer sets no cookie at all; a signed-in session (a failed linking attempt) is kept.
 */
export async function discardLoginSession(req: Request): Promise<void> {
  if (!req.session || req.session.userId !== undefined) return;
  await promised((done) => req.session.destroy(done));
}
