import { OAUTH_PROVIDERS, type OAuthProvider } from '@uptime/db';
import { LINK_TOKEN, LINK_TOKEN_LENGTH } from '../../auth/login-links.service';
import { dataEnvelope } from '../common-schemas';
import { dataExample } from '../examples';
import { arrayOf, enumOf, objectOf, str } from '../json-schema';
import type { OperationSpec } from '../operation';

/** What the sign-in page offers (sign-in.routes.ts) and the one-time link (login-link.routes.ts): reachable without a caller. */
export const SIGN_IN_OPTION_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/auth/providers',
    operationId: 'listSignInProviders',
    tag: 'Auth',
    summary: 'The OAuth providers this server signs in with',
    description:
      'The providers whose client id and secret are configured (GITHUB_CLIENT_ID/SECRET, GOOGLE_CLIENT_ID/SECRET), in a fixed order; empty when none is. The sign-in page shows a button for each.',
    access: 'public',
    responses: {
      200: {
        description: 'The configured providers',
        schema: dataEnvelope(
          objectOf<{ providers: OAuthProvider[] }>({ providers: arrayOf(enumOf(OAUTH_PROVIDERS), { maxItems: OAUTH_PROVIDERS.length }) }),
        ),
        example: dataExample({ providers: ['github', 'google'] }),
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/auth/link/{token}',
    operationId: 'signInWithLink',
    tag: 'Auth',
    summary: 'Sign in with a one-time link',
    description:
      'The URL `pnpm cli login-link --email E` prints, for installs without OAuth. Open it in a browser. A valid link starts a new session (cookie `uptime.sid`, as an OAuth sign-in does) and redirects to APP_URL. A link works once and for 15 minutes; a used, expired or unknown one starts no session, sets no cookie and redirects to `${APP_URL}/sign-in?error=invalid_link`.',
    access: 'public',
    capability: {
      grants:
        "one new session as the user it was made for, with everything that user may do in the web app and the API, until the session ends (SESSION_TTL_SECONDS, or signing out); the link itself works once and for 15 minutes",
      revoke:
        'open it (a used link never works again) or let its 15 minutes pass; an unused link is ended at once by deleting its row (`DELETE FROM login_links WHERE user_id = … AND used_at IS NULL`). A session it started ends with `POST /api/v1/auth/logout` from that browser',
    },
    parameters: [
      {
        name: 'token',
        in: 'path',
        description: 'The secret of the link (43 url-safe characters); anything else is refused like an unknown link',
        schema: str({ maxLength: LINK_TOKEN_LENGTH, pattern: LINK_TOKEN.source }),
      },
    ],
    responses: {
      302: {
        description: 'Signed in: to APP_URL, with the session cookie. Refused: to `${APP_URL}/sign-in?error=invalid_link`, without one.',
        headers: ['Location'],
      },
    },
  },
];
