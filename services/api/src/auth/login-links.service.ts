import { randomBytes } from 'node:crypto';
import { hashApiToken, type DataSource, type User } from '@uptime/db';
import { consumeLoginLink, insertLoginLink } from './login-links.repository';
import { roleAtSignIn } from './roles';
import { findExistingUser, saveUser } from './users.repository';

/** How long a login link works (docs/security.md). */
export const LOGIN_LINK_TTL_MS = 15 * 60_000;

/** The secret in the URL: 43 url-safe characters (256 random bits). */
export const LINK_TOKEN_LENGTH = 43;
export const LINK_TOKEN = new RegExp(`^[A-Za-z0-9_-]{${LINK_TOKEN_LENGTH}}$`);

export interface LoginLink {
  url: string;
  expiresAt: Date;
}

/** The path of a link, below PUBLIC_URL; the route is login-link.routes.ts. */
export const loginLinkPath = (token: string): string => `/api/v1/auth/link/${token}`;

/** A new single-use link for the user; only the SHA-256 of its secret is stored (as for API tokens). */
export async function createLoginLink(ds: DataSource, userId: number, publicUrl: string): Promise<LoginLink> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + LOGIN_LINK_TTL_MS);
  await insertLoginLink(ds, userId, hashApiToken(token), expiresAt);
  return { url: `${publicUrl}${loginLinkPath(token)}`, expiresAt };
}

/**
 * The user a link signs in, using the link up; null for a used, expired or unknown one. Like an
 * OAuth sign-in it updates `last_login` and the role (ADMIN_EMAILS).
 */
export async function redeemLoginLink(ds: DataSource, token: string, adminEmails: readonly string[]): Promise<User | null> {
  if (!LINK_TOKEN.test(token)) return null;
  return ds.transaction(async (em) => {
    const userId = await consumeLoginLink(em, hashApiToken(token));
    if (userId === null) return null;
    const user = await findExistingUser(em, userId);
    user.lastLogin = new Date();
    user.role = roleAtSignIn(user.email, user.role, adminEmails);
    return saveUser(em, user);
  });
}
