import { OAUTH_PROVIDERS, type OAuthProvider } from '@uptime/db';
import { dataEnvelope } from '../common-schemas';
import { dataExample } from '../examples';
import { arrayOf, enumOf, objectOf } from '../json-schema';
import type { OperationSpec } from '../operation';

/** What the sign-in page offers (sign-in.routes.ts): reachable without a caller. */
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
          objectOf<{ providers: OAuthProvider[] }>({ providers: arrayOf(enumOf(OAUTH_PROVIDERS)) }),
        ),
        example: dataExample({ providers: ['github', 'google'] }),
      },
    },
  },
];
