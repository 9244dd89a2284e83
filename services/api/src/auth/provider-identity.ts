import type { Profile } from 'passport';
import type { OAuthProvider } from '@uptime/db';

/** What a provider told us about the account that just signed in, independent of its format. */
export interface ProviderIdentity {
  provider: OAuthProvider;
  providerUserId: string;
  /** The address used for the account; null when the provider shares none. */
  email: string | null;
  /** Whether the provider says the account owns `email`: only a verified address ever links. */
  emailVerified: boolean;
  name: string | null;
  avatarUrl: string | null;
}

interface RawEmail {
  value: string;
  primary: boolean;
  verified: boolean;
}

/** `/user/emails` entries as passport-github2 hands them over with `allRawEmails`. */
function rawEmailsOf(profile: Profile): RawEmail[] {
  const list: unknown[] = Array.isArray(profile.emails) ? profile.emails : [];
  return list.flatMap((entry) => {
    if (entry === null || typeof entry !== 'object') return [];
    const { value, primary, verified } = entry as Record<string, unknown>;
    return typeof value === 'string' && value.length > 0 ? [{ value, primary: primary === true, verified: verified === true }] : [];
  });
}

const nameOf = (profile: Profile): string | null => profile.displayName || profile.username || null;
const avatarOf = (profile: Profile): string | null => profile.photos?.[0]?.value ?? null;

/**
 * GitHub: the primary address if verified, else any verified one, else the (unverified)
 * primary; `/user/emails` carries the `verified` flag for each.
 */
export function identityFromGitHub(profile: Profile): ProviderIdentity {
  const emails = rawEmailsOf(profile);
  const chosen =
    emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified) ?? emails.find((e) => e.primary) ?? emails[0];
  return {
    provider: 'github',
    providerUserId: profile.id,
    email: chosen?.value ?? null,
    emailVerified: chosen?.verified ?? false,
    name: nameOf(profile),
    avatarUrl: avatarOf(profile),
  };
}

/** Google (OpenID userinfo): `email` with `email_verified`, which Google has sent as a boolean and as a string. */
export function identityFromGoogle(profile: Profile & { _json?: Record<string, unknown> }): ProviderIdentity {
  const json = profile._json ?? {};
  const email = typeof json.email === 'string' && json.email.length > 0 ? json.email : null;
  return {
    provider: 'google',
    providerUserId: profile.id,
    email,
    emailVerified: email !== null && (json.email_verified === true || json.email_verified === 'true'),
    name: nameOf(profile),
    avatarUrl: avatarOf(profile),
  };
}
