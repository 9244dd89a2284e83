import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which real provider's endpoints, wire formats and quirks the fake speaks. */
export type FakeOAuthFlavor = 'github' | 'google';

/** The provider account that "consents" at the fake's authorization endpoint. */
export interface FakeOAuthAccount {
  /** The provider's user id (`id` for GitHub, `sub` for Google). */
  id: string;
  /** Primary address; null when the account shares none. */
  email: string | null;
  emailVerified: boolean;
  name?: string;
  avatarUrl?: string;
  /** GitHub only: further addresses listed by `/user/emails` besides the primary one. */
  otherEmails?: Array<{ email: string; verified: boolean }>;
}

export interface FakeOAuthRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Form fields of a POST. */
  form: Record<string, string>;
  headers: IncomingMessage['headers'];
}

export interface FakeOAuthProvider {
  flavor: FakeOAuthFlavor;
  url: string;
  clientId: string;
  clientSecret: string;
  /** The environment of docs/configuration.md that points the API's strategy at this fake. */
  env: Record<string, string>;
  /** The account signed in at the provider: the next authorization is granted for it. */
  signInAs(account: FakeOAuthAccount): void;
  /** Every request received, oldest first. */
  requests: FakeOAuthRequest[];
  close(): Promise<void>;
}

interface IssuedCode {
  account: FakeOAuthAccount;
  redirectUri: string;
  codeChallenge?: string;
}

const PATHS = {
  github: { authorize: '/login/oauth/authorize', token: '/login/oauth/access_token', profile: '/user', emails: '/user/emails' },
  // The userinfo path must end with /userinfo: passport-google-oauth20 picks the OpenID profile format by it.
  google: { authorize: '/o/oauth2/v2/auth', token: '/token', profile: '/oauth2/v3/userinfo', emails: undefined },
} as const;

const base64url = (buf: Buffer): string => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** What one fake provider knows: its client, the codes and tokens it issued, who is signed in. */
interface ProviderState {
  flavor: FakeOAuthFlavor;
  clientId: string;
  clientSecret: string;
  codes: Map<string, IssuedCode>;
  accessTokens: Map<string, FakeOAuthAccount>;
  current: FakeOAuthAccount | undefined;
}

function authorize(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse): void {
  const { client_id, redirect_uri, response_type, state, code_challenge, code_challenge_method } = req.query;
  if (client_id !== s.clientId) return send(res, 400, 'unknown client_id', 'text/plain');
  if (!redirect_uri || response_type !== 'code') return send(res, 400, 'redirect_uri and response_type=code are required', 'text/plain');
  if (s.flavor === 'google' && (!code_challenge || code_challenge_method !== 'S256')) {
    return send(res, 400, 'PKCE with code_challenge_method=S256 is required', 'text/plain');
  }
  if (!s.current) return send(res, 400, 'no account is signed in at the fake provider', 'text/plain');
  const code = base64url(randomBytes(16));
  s.codes.set(code, { account: s.current, redirectUri: redirect_uri, codeChallenge: code_challenge });
  const back = new URL(redirect_uri);
  back.searchParams.set('code', code);
  if (state !== undefined) back.searchParams.set('state', state);
  res.writeHead(302, { location: back.toString() });
  res.end();
}

/** Errors as each provider answers them: GitHub with a 200 carrying `error`, Google per RFC 6749. */
function tokenError(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse, error: string, description: string): void {
  if (s.flavor === 'google') return send(res, error === 'invalid_client' ? 401 : 400, { error, error_description: description });
  return answerGitHubForm(req, res, { error, error_description: description });
}

function answerGitHubForm(req: FakeOAuthRequest, res: ServerResponse, fields: Record<string, string>): void {
  // GitHub answers form-encoded unless the client asks for JSON.
  if (String(req.headers.accept ?? '').includes('application/json')) return send(res, 200, fields);
  return send(res, 200, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded');
}

function token(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse): void {
  const { grant_type, client_id, client_secret, code, redirect_uri, code_verifier } = req.form;
  if (client_id !== s.clientId || client_secret !== s.clientSecret) {
    return tokenError(s, req, res, s.flavor === 'github' ? 'incorrect_client_credentials' : 'invalid_client', 'client authentication failed');
  }
  if (grant_type !== 'authorization_code') return tokenError(s, req, res, 'unsupported_grant_type', 'grant_type must be authorization_code');
  const issued = code === undefined ? undefined : s.codes.get(code);
  if (!issued || code === undefined) {
    return tokenError(s, req, res, s.flavor === 'github' ? 'bad_verification_code' : 'invalid_grant', 'unknown or used code');
  }
  s.codes.delete(code);
  if (redirect_uri !== issued.redirectUri) {
    return tokenError(s, req, res, s.flavor === 'github' ? 'redirect_uri_mismatch' : 'invalid_grant', 'redirect_uri differs');
  }
  if (issued.codeChallenge !== undefined) {
    const expected = code_verifier ? base64url(createHash('sha256').update(code_verifier).digest()) : undefined;
    if (expected !== issued.codeChallenge) return tokenError(s, req, res, 'invalid_grant', 'code_verifier does not match code_challenge');
  }
  const accessToken = `fake_${s.flavor}_${base64url(randomBytes(18))}`;
  s.accessTokens.set(accessToken, issued.account);
  if (s.flavor === 'github') return answerGitHubForm(req, res, { access_token: accessToken, scope: 'user:email', token_type: 'bearer' });
  return send(res, 200, { access_token: accessToken, expires_in: 3599, scope: 'openid email profile', token_type: 'Bearer' });
}

function accountOf(s: ProviderState, req: FakeOAuthRequest): FakeOAuthAccount | undefined {
  const header = /^(?:Bearer|token)\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
  return s.accessTokens.get(header ?? req.query.access_token ?? '');
}

function profile(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse): void {
  const account = accountOf(s, req);
  if (!account) return send(res, 401, s.flavor === 'github' ? { message: 'Bad credentials' } : { error: 'invalid_token' });
  if (s.flavor === 'github') {
    return send(res, 200, {
      id: Number(account.id),
      login: `login-${account.id}`,
      name: account.name ?? null,
      // GitHub shows only a public address here; the strategy reads /user/emails for the rest.
      email: null,
      avatar_url: account.avatarUrl ?? null,
      html_url: `https://github.example/login-${account.id}`,
    });
  }
  return send(res, 200, {
    sub: account.id,
    name: account.name,
    picture: account.avatarUrl,
    ...(account.email === null ? {} : { email: account.email, email_verified: account.emailVerified }),
  });
}

function emails(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse): void {
  const account = accountOf(s, req);
  if (!account) return send(res, 401, { message: 'Bad credentials' });
  const primary =
    account.email === null ? [] : [{ email: account.email, primary: true, verified: account.emailVerified, visibility: 'private' }];
  const others = (account.otherEmails ?? []).map((e) => ({ ...e, primary: false, visibility: null }));
  return send(res, 200, [...primary, ...others]);
}

/** The request as the handlers read it: path, query and form fields parsed. */
function fakeOAuthRequestOf(incoming: IncomingMessage, body: string): FakeOAuthRequest {
  const url = new URL(incoming.url ?? '/', 'http://fake');
  const isForm = String(incoming.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    form: isForm ? Object.fromEntries(new URLSearchParams(body)) : {},
    headers: incoming.headers,
  };
}

function route(s: ProviderState, req: FakeOAuthRequest, res: ServerResponse): void {
  const paths = PATHS[s.flavor];
  if (req.method === 'GET' && req.path === paths.authorize) return authorize(s, req, res);
  if (req.method === 'POST' && req.path === paths.token) return token(s, req, res);
  if (req.method === 'GET' && req.path === paths.profile) return profile(s, req, res);
  if (req.method === 'GET' && paths.emails !== undefined && req.path === paths.emails) return emails(s, req, res);
  return send(res, 404, { error: 'not_found' });
}

/**
 * A local OAuth 2.0 provider speaking GitHub's or Google's protocol, for driving the real
 * passport strategies in tests: the authorization endpoint redirects back with `code` and the
 * given `state`; the token endpoint takes a form-encoded POST and checks `client_secret`, the
 * code (single use), `redirect_uri` and, when a `code_challenge` was given (always required for
 * the Google flavour), the PKCE `code_verifier` by S256; the profile endpoints answer like
 * GitHub's `/user` and `/user/emails` or Google's OpenID `userinfo`.
 */
export async function startFakeOAuthProvider(
  flavor: FakeOAuthFlavor,
  { clientId = `${flavor}-client-id`, clientSecret = `${flavor}-client-secret-${randomBytes(4).toString('hex')}` } = {},
): Promise<FakeOAuthProvider> {
  const paths = PATHS[flavor];
  const state: ProviderState = { flavor, clientId, clientSecret, codes: new Map(), accessTokens: new Map(), current: undefined };
  const requests: FakeOAuthRequest[] = [];
  const server: Server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const req = fakeOAuthRequestOf(incoming, Buffer.concat(chunks).toString());
      requests.push(req);
      route(state, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prefix = flavor.toUpperCase();
  const env: Record<string, string> = {
    [`${prefix}_CLIENT_ID`]: clientId,
    [`${prefix}_CLIENT_SECRET`]: clientSecret,
    [`${prefix}_AUTHORIZATION_URL`]: url + paths.authorize,
    [`${prefix}_TOKEN_URL`]: url + paths.token,
    [`${prefix}_USER_PROFILE_URL`]: url + paths.profile,
    ...(paths.emails === undefined ? {} : { [`${prefix}_USER_EMAIL_URL`]: url + paths.emails }),
  };
  return {
    flavor,
    url,
    clientId,
    clientSecret,
    env,
    signInAs: (account) => {
      state.current = account;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
