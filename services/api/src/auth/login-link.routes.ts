import { Router } from 'express';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { redeemLoginLink } from './login-links.service';
import { startSession } from './start-session';

/** Where a used, expired or unknown link sends the browser: the app's sign-in page says why. */
export const invalidLinkUrl = (appUrl: string): string => `${appUrl.replace(/\/+$/, '')}/sign-in?error=invalid_link`;

/**
 * `GET /auth/link/{token}`, reachable without a caller: a one-time link from `pnpm cli
 * login-link` signs the browser in with the same session as an OAuth sign-in and redirects to
 * APP_URL. Any failure redirects to the sign-in page and leaves the session as it was (no cookie).
 */
export function loginLinkRouter({ ds, config, logger }: { ds: DataSource; config: Config; logger: Logger }): Router {
  const router = Router();

  router.get('/link/:token', async (req, res) => {
    // The link's secret is in the URL: no cache may keep the answer.
    res.setHeader('Cache-Control', 'no-store');
    const user = await redeemLoginLink(ds, req.params.token ?? '', config.adminEmails);
    if (!user) {
      logger.warn({ request_id: res.locals.requestId }, 'login link refused: used, expired or unknown');
      res.redirect(302, invalidLinkUrl(config.http.appUrl));
      return;
    }
    await startSession(req, user.id);
    logger.info({ via: 'login-link', user_id: user.id, request_id: res.locals.requestId }, 'signed in');
    res.redirect(302, config.http.appUrl);
  });

  return router;
}
