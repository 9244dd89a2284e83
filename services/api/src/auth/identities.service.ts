import { isUniqueViolation, type DataSource, type EntityManager, type OAuthProvider, type User, type UserIdentity } from '@uptime/db';
import { ConflictError, UnauthorizedError } from '@uptime/errors';
import type { ProviderIdentity } from './provider-identity';
import { findIdentity, identityProviders, saveIdentity } from './identities.repository';
import { roleAtSignIn } from './roles';
import { findExistingUser, findUser, findUserByEmail, insertUser, saveUser } from './users.repository';

export const PROVIDER_LABELS: Record<OAuthProvider, string> = { github: 'GitHub', google: 'Google' };

export interface SignInContext {
  /** The user of the session the sign-in started from: a second provider is linked to them. */
  currentUserId?: number;
  adminEmails: readonly string[];
}

/** The user an identity signs in as, before any write. */
async function resolveUser(em: EntityManager, identity: ProviderIdentity, link: UserIdentity | null, ctx: SignInContext): Promise<User> {
  const label = PROVIDER_LABELS[identity.provider];
  if (link) {
    if (ctx.currentUserId !== undefined && link.userId !== ctx.currentUserId) {
      throw new ConflictError('RESOURCE_EXISTS', `This ${label} account is already linked to another user`);
    }
    return findExistingUser(em, link.userId);
  }
  if (ctx.currentUserId !== undefined) {
    const current = await findUser(em, ctx.currentUserId);
    if (!current) throw new UnauthorizedError('The signed-in user no longer exists; sign in again');
    return current;
  }
  // An address the provider has not verified proves nothing: it neither links to the account
  // holding it nor creates one (which would let its later, verified owner be linked into it).
  if (!identity.email) throw new UnauthorizedError(`${label} did not share an email address with this application`);
  if (!identity.emailVerified) {
    throw new UnauthorizedError(`The email address of this ${label} account is not verified; verify it at ${label} and sign in again`);
  }
  const existing = await findUserByEmail(em, identity.email);
  if (existing) return existing;
  return insertUser(em, { email: identity.email, name: identity.name, avatarUrl: identity.avatarUrl, role: 'user' });
}

async function signInOnce(ds: DataSource, identity: ProviderIdentity, ctx: SignInContext): Promise<User> {
  return ds.transaction(async (em) => {
    const found = await findIdentity(em, identity.provider, identity.providerUserId);
    const user = await resolveUser(em, identity, found, ctx);
    await saveIdentity(em, found, {
      userId: user.id,
      provider: identity.provider,
      providerUserId: identity.providerUserId,
      email: identity.email,
      emailVerified: identity.emailVerified,
    });
    user.lastLogin = new Date();
    user.name ??= identity.name;
    user.avatarUrl ??= identity.avatarUrl;
    user.role = roleAtSignIn(user.email, user.role, ctx.adminEmails);
    return saveUser(em, user);
  });
}

/**
 * Signs a provider account in (docs/security.md): a known account → its user; else, when signed in
 * already → linked to that user; else a verified address equal (case-insensitively) to a
 * user's → linked to that user; else a new user. Updates `last_login` and the role.
 */
export async function signInWithIdentity(ds: DataSource, identity: ProviderIdentity, ctx: SignInContext): Promise<User> {
  try {
    return await signInOnce(ds, identity, ctx);
  } catch (err) {
    // Two first sign-ins of one account (or one address) racing: the loser's insert hits a
    // unique index; on the second pass it finds what the winner wrote.
    if (!isUniqueViolation(err)) throw err;
    return signInOnce(ds, identity, ctx);
  }
}

/** The providers linked to a user, alphabetically. */
export async function linkedProviders(ds: DataSource, userId: number): Promise<OAuthProvider[]> {
  return [...new Set(await identityProviders(ds, userId))];
}
