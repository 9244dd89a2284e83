import type { UserRole } from '@uptime/db';

/**
 * The role a user has after signing in (docs/security.md): `admin` when the address is listed in
 * `ADMIN_EMAILS`. Never demotes: an admin made with `pnpm cli user:create --admin` stays one.
 * Users only ever get an address a provider verified (or one an operator typed), so the list
 * cannot be claimed with an unverified address.
 */
export function roleAtSignIn(email: string, current: UserRole, adminEmails: readonly string[]): UserRole {
  return adminEmails.includes(email.toLowerCase()) ? 'admin' : current;
}
