import passport, { type Profile } from 'passport';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { Request } from 'express';
import type { Config } from '@uptime/config';
import type { DataSource, OAuthProvider } from '@uptime/db';
import { signInWithIdentity } from './identities.service';
import { identityFromGitHub, identityFromGoogle, type ProviderIdentity } from './provider-identity';

/** A passport instance of its own (not the process-wide singleton). */
export type PassportInstance = InstanceType<typeof passport.Passport>;

/** passport-oauth2's `verified` callback. */
type VerifyCallback = (err?: unknown, user?: Express.User | false, info?: object) => void;

export interface OAuthSetup {
  /** A passport instance of this app only (tests run several apps in one process). */
  passport: PassportInstance;
  /** Providers with credentials; the others answer 404. */
  enabled: ReadonlySet<OAuthProvider>;
}

/** `${PUBLIC_URL}/api/v1/auth/{provider}/callback` (docs/configuration.md). */
export const callbackUrlOf = (config: Config, provider: OAuthProvider): string =>
  `${config.http.publicUrl}/api/v1/auth/${provider}/callback`;

/**
 * passport-oauth2 keeps a random `state` in the session when the option is `true`;
 * @types/passport-github2 types the option as a fixed string, which would defeat it.
 */
const STATE_IN_SESSION = true as unknown as string;

/** The verify step: profile → our user (found, linked or created), with the session's user for linking. */
function verifyWith(ds: DataSource, config: Config, toIdentity: (profile: Profile) => ProviderIdentity) {
  return (req: Request, _accessToken: string, _refreshToken: string, profile: Profile, done: VerifyCallback): void => {
    signInWithIdentity(ds, toIdentity(profile), { currentUserId: req.session?.userId, adminEmails: config.adminEmails }).then(
      (user) => done(null, user),
      (err: unknown) => done(err),
    );
  };
}

/**
 * The OAuth 2.0 strategies (docs/security.md) with the endpoint overrides of docs/configuration.md. Both keep
 * `state` in the session under their own key (the default key is the authorization host, which
 * two providers may share, e.g. two fakes on 127.0.0.1); Google also uses PKCE (S256).
 */
export function createOAuth(config: Config, ds: DataSource): OAuthSetup {
  const instance = new passport.Passport();
  const enabled = new Set<OAuthProvider>();
  const { github, google } = config.oauth;
  if (github) {
    instance.use(
      'github',
      new GitHubStrategy(
        {
          clientID: github.clientId,
          clientSecret: github.clientSecret,
          callbackURL: callbackUrlOf(config, 'github'),
          authorizationURL: github.authorizationUrl,
          tokenURL: github.tokenUrl,
          userProfileURL: github.userProfileUrl,
          userEmailURL: github.userEmailUrl,
          scope: ['user:email'],
          // Every address with its `verified` flag, not only the primary one's value.
          allRawEmails: true,
          state: STATE_IN_SESSION,
          sessionKey: 'oauth2:github',
          passReqToCallback: true,
        },
        verifyWith(ds, config, identityFromGitHub),
      ),
    );
    enabled.add('github');
  }
  if (google) {
    instance.use(
      'google',
      new GoogleStrategy(
        {
          clientID: google.clientId,
          clientSecret: google.clientSecret,
          callbackURL: callbackUrlOf(config, 'google'),
          authorizationURL: google.authorizationUrl,
          tokenURL: google.tokenUrl,
          userProfileURL: google.userProfileUrl,
          scope: ['openid', 'email', 'profile'],
          state: true,
          pkce: true,
          sessionKey: 'oauth2:google',
          passReqToCallback: true,
        },
        verifyWith(ds, config, identityFromGoogle),
      ),
    );
    enabled.add('google');
  }
  return { passport: instance, enabled };
}
