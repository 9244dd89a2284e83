import { entityFromRow, UserIdentity, type DataSource, type EntityManager, type OAuthProvider } from '@uptime/db';

/** The link of this provider account to a user; null when it was never signed in. */
export async function findIdentity(em: EntityManager, provider: OAuthProvider, providerUserId: string): Promise<UserIdentity | null> {
  const [row]: Record<string, unknown>[] = await em.query(`SELECT * FROM user_identities WHERE provider = $1 AND provider_user_id = $2`, [
    provider,
    providerUserId,
  ]);
  return row ? entityFromRow(em, UserIdentity, row) : null;
}

/** Stores a link, new (`link` null) or known, with the address the provider gave this time. */
export async function saveIdentity(
  em: EntityManager,
  link: UserIdentity | null,
  fields: { userId: number; provider: OAuthProvider; providerUserId: string; email: string | null; emailVerified: boolean },
): Promise<void> {
  if (link) {
    await em.query(`UPDATE user_identities SET email = $2, email_verified = $3 WHERE id = $1`, [link.id, fields.email, fields.emailVerified]);
    return;
  }
  await em.query(`INSERT INTO user_identities (user_id, provider, provider_user_id, email, email_verified) VALUES ($1, $2, $3, $4, $5)`, [
    fields.userId,
    fields.provider,
    fields.providerUserId,
    fields.email,
    fields.emailVerified,
  ]);
}

/** The providers of a user's links, alphabetically (one a link). */
export async function identityProviders(ds: DataSource, userId: number): Promise<OAuthProvider[]> {
  const rows: { provider: OAuthProvider }[] = await ds.query(`SELECT provider FROM user_identities WHERE user_id = $1 ORDER BY provider`, [userId]);
  return rows.map((r) => r.provider);
}
