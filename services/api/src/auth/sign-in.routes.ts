import { Router, type Request } from 'express';
import type { Config } from '@uptime/config';
import { OAUTH_PROVIDERS, User, type OAuthProvider } from '@uptime/db';
import { DomainError, UnauthorizedError, ValidationError } from '@uptime/errors';
import type { Logger } from '@uptime/logger';
import { sendData } from '../http/envelope';
import { PROVIDER_LABELS } from './identities.service';
import type { OAuthSetup } from './oauth-strategies';
import { toSignInError } from './sign-in-error';
import { discardLoginSession, startSession } from './start-session';

export interface SignInDeps {
  config: Config;
  oauth: OAuthSetup;
  logger: Logger;
}

/** How long a sign-in may take at the provider. */
const LOGIN_SESSION_TTL_MS = 10 * 60_000;

const isKnownProvider = (value: string): value is OAuthProvider => (OAUTH_PROVIDERS as readonly string[]).includes(value);

/** A provider segment that is unknown or has no credentials answers 404 (docs/security.md). */
function enabledProvider(oauth: OAuthSetup, raw: string | undefined): OAuthProvider {
  const value = raw ?? '';
  if (!isKnownProvider(value) || !oauth.enabled.has(value)) {
    throw new DomainError('NOT_FOUND', `Sign-in with "${value}" is not available on this server`);
  }
  return value;
}

const queryString = (req: Request, name: string): string | undefined => {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/**
 * `GET /auth/providers`, `GET /auth/{provider}/login` and `/callback` (docs/security.md), reachable
 * without a caller. The
 * login leg stores `state` (and Google's PKCE verifier) in the session and redirects to the
 * provider; the callback checks them, exchanges the code, signs the account in and redirects to
 * `APP_URL`.
 */
export function signInRouter({ config, oauth, logger }: SignInDeps): Router {
  const router = Router();

  // Which sign-in buttons the app shows: the providers with credentials, in a fixed order.
  const providers = OAUTH_PROVIDERS.filter((p) => oauth.enabled.has(p));
  router.get('/providers', (_req, res) => {
    sendData(res, { providers });
  });

  router.get('/:provider/login', (req, res, next) => {
    const provider = enabledProvider(oauth, req.params.provider);
    // passport treats any request carrying `code` as a callback; the login leg takes none.
    if (queryString(req, 'code') !== undefined || queryString(req, 'error') !== undefined) {
      throw new ValidationError('The login URL takes no code or error; the provider redirects to the callback URL', {
        code: ['not accepted on the login URL'],
      });
    }
    // A session that only carries a login's state need not outlive the login: anonymous visits
    // to this URL cannot fill Redis with week-long sessions. A signed-in one keeps its expiry.
    if (req.session.userId === undefined) req.session.cookie.maxAge = LOGIN_SESSION_TTL_MS;
    oauth.passport.authenticate(provider, { session: false })(req, res, next);
  });

  router.get('/:provider/callback', (req, res, next) => {
    const provider = enabledProvider(oauth, req.params.provider);
    const label = PROVIDER_LABELS[provider];
    const refused = queryString(req, 'error');
    if (refused !== undefined) {
      const description = queryString(req, 'error_description');
      throw new UnauthorizedError(`Sign-in with ${label} was not completed: ${refused}${description ? ` (${description})` : ''}`);
    }
    // Without a code passport would start a new login instead; without a state it would fail
    // later anyway: both are the caller's error, answered before anything is stored.
    const missing = (['code', 'state'] as const).filter((name) => queryString(req, name) === undefined);
    if (missing.length > 0) {
      throw new ValidationError(
        `Invalid callback: ${missing.join(', ')}`,
        Object.fromEntries(missing.map((n) => [n, [`${n} is required`]])),
      );
    }
    const authenticate = oauth.passport.authenticate(provider, { session: false }, (err: unknown, user: Express.User | false | null) => {
      if (err || !(user instanceof User)) {
        const failure = err
          ? toSignInError(err, label)
          : new UnauthorizedError(`Sign-in with ${label} failed: the authorization state did not match`);
        logger.warn({ provider, request_id: res.locals.requestId, reason: failure.message, err }, 'sign-in refused');
        discardLoginSession(req).then(() => next(failure), next);
        return;
      }
      startSession(req, user.id, provider).then(() => {
        logger.info({ provider, user_id: user.id, request_id: res.locals.requestId }, 'signed in');
        res.redirect(302, config.http.appUrl);
      }, next);
    });
    authenticate(req, res, next);
  });

  return router;
}
