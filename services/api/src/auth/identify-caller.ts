import type { RequestHandler } from 'express';
import type { DataSource } from '@uptime/db';
import { UnauthorizedError } from '@uptime/errors';
import { bearerAuth } from './bearer-auth';
import { sessionCaller } from './session-caller';
import type { TokenCache } from './token-cache';

/**
 * Finds the caller: `Authorization: Bearer` first, else the session cookie. A bad token does
 * not answer at once: its 401 is kept for `requireCaller`, so the rate limiter in between
 * still counts the request (per IP) and the sign-in routes stay reachable.
 */
export function identifyCaller(ds: DataSource, tokenCache: TokenCache): RequestHandler {
  const bearer = bearerAuth(ds, tokenCache);
  const session = sessionCaller(ds);
  return (req, res, next) => {
    const afterBearer = (err?: unknown): void => {
      if (err instanceof UnauthorizedError) {
        res.locals.authError = err;
        return next();
      }
      if (err) return next(err);
      Promise.resolve(session(req, res, next)).catch(next);
    };
    Promise.resolve(bearer(req, res, afterBearer)).catch(next);
  };
}

/** Everything under /api/v1 except sign-in needs a caller. */
export const requireCaller: RequestHandler = (req, res, next) => {
  if (req.caller) return next();
  const deferred: unknown = res.locals.authError;
  next(deferred instanceof UnauthorizedError ? deferred : new UnauthorizedError());
};
