import { OAUTH_PROVIDERS } from '@uptime/db';
import { dataEnvelope, listEnvelope } from '../common-schemas';
import { dataExample, EXAMPLE_META, EXAMPLE_TOKEN, EXAMPLE_USER, listExample, messageExample } from '../examples';
import { enumOf, objectOf, QUERY_VALUE_MAX, ref, str, TEXT_MAX, timestamp } from '../json-schema';
import { idParam, pageParams, type OperationSpec, type ParameterSpec } from '../operation';

const provider: ParameterSpec = {
  name: 'provider',
  in: 'path',
  description: 'A provider without credentials on this server answers 404',
  schema: enumOf(OAUTH_PROVIDERS),
};
const query = (name: string, description: string): ParameterSpec => ({ name, in: 'query', description, schema: str({ maxLength: QUERY_VALUE_MAX }) });
/** The sign-in legs: reachable without a caller. */
const SIGN_IN_ERRORS = ['NOT_FOUND'] as const;

/** `/auth` (sign-in.routes.ts, session.routes.ts, tokens.routes.ts; docs/security.md: OAuth sign-in, sessions, API tokens). */
export const AUTH_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/auth/{provider}/login',
    operationId: 'signIn',
    tag: 'Auth',
    summary: 'Start signing in with GitHub or Google',
    description: 'Redirects to the provider\'s consent screen (OAuth 2.0 Authorization Code with `state`; PKCE with Google). Open it in a browser.',
    access: 'public',
    parameters: [provider],
    responses: { 302: { description: "To the provider's consent screen", headers: ['Location'] } },
    errors: [...SIGN_IN_ERRORS],
  },
  {
    method: 'get',
    path: '/api/v1/auth/{provider}/callback',
    operationId: 'signInCallback',
    tag: 'Auth',
    summary: 'Where the provider sends the browser back',
    description:
      'Checks `state`, exchanges the code, signs the account in (linking by verified email), starts a new session (cookie `uptime.sid`) and redirects to APP_URL. A failure creates no session.',
    access: 'public',
    parameters: [
      { ...query('code', 'Authorization code'), required: true },
      { ...query('state', 'The state of the login leg'), required: true },
      query('error', 'Set by the provider when the user refused'),
      query('error_description', "The provider's explanation"),
      provider,
    ],
    responses: { 302: { description: 'Signed in: to APP_URL, with the session cookie', headers: ['Location'] } },
    errors: [...SIGN_IN_ERRORS, 'UNAUTHORIZED', 'RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: '/api/v1/auth/user',
    operationId: 'getCurrentUser',
    tag: 'Auth',
    summary: 'The signed-in user',
    responses: { 200: { description: 'The user', schema: dataEnvelope(ref('User')), example: dataExample(EXAMPLE_USER) } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/refresh',
    operationId: 'refreshSession',
    tag: 'Auth',
    summary: 'Extend the session',
    description: 'Session only (a bearer token is a 401). `expires_at` is at the top level, beside `message`.',
    access: 'session',
    responses: {
      200: {
        description: 'Extended; the cookie is sent again',
        schema: objectOf<{ message: string; expires_at: string; meta: unknown }>({ message: str({ maxLength: TEXT_MAX }), expires_at: timestamp(), meta: ref('Meta') }),
        example: { message: 'Session extended', expires_at: '2026-11-29T10:00:00.000Z', meta: EXAMPLE_META },
      },
    },
  },
  {
    method: 'post',
    path: '/api/v1/auth/logout',
    operationId: 'signOut',
    tag: 'Auth',
    summary: 'Sign out',
    description: 'Destroys the session server-side: the old cookie stops working. Session only.',
    access: 'session',
    responses: { 200: { description: 'Signed out', schema: ref('MessageResponse'), example: messageExample('Signed out') } },
  },
  {
    method: 'get',
    path: '/api/v1/auth/tokens',
    operationId: 'listTokens',
    tag: 'Auth',
    summary: 'Your API tokens',
    description: 'Those acting in the organization the request acts in (a token its own, a session the one `X-Organization-Id` names, else your personal one); your tokens of other organizations are listed from there.',
    parameters: pageParams(50, 100),
    responses: { 200: { description: 'A page of tokens (never their values)', schema: listEnvelope(ref('Token')), example: listExample([EXAMPLE_TOKEN]) } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/tokens',
    operationId: 'createToken',
    tag: 'Auth',
    summary: 'Create an API token',
    description: 'The token (`upt_…`) is shown only in this answer; send it as `Authorization: Bearer <token>`.',
    body: { schema: ref('TokenCreate'), required: true, example: { name: 'ci', expires_in_days: 90 } },
    responses: {
      201: {
        description: 'The new token with its value',
        schema: dataEnvelope(ref('CreatedToken')),
        example: dataExample({ id: 6, name: 'ci', organization_id: 1, scope: 'write', token: 'upt_3q2-7wEvGZ0mHk4tqXfQz1Yw0b9sV8rT6uN5oM4pL3k', created_at: '2026-11-22T10:00:00.000Z', expires_at: '2027-02-20T10:00:00.000Z' }),
      },
    },
  },
  {
    method: 'delete',
    path: '/api/v1/auth/tokens/{id}',
    operationId: 'revokeToken',
    tag: 'Auth',
    summary: 'Revoke an API token',
    description: 'One of your tokens acting in the organization the request acts in; any other token is 404 TOKEN_NOT_FOUND.',
    parameters: [idParam('token')],
    responses: { 200: { description: 'Revoked', schema: ref('MessageResponse'), example: messageExample('Token revoked') } },
    errors: ['TOKEN_NOT_FOUND'],
  },
];
