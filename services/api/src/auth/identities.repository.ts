import { UserIdentity, type DataSource, type EntityManager, type OAuthProvider } from '@uptime/db';

/** The link of this provider account to a user; null when it was never signed in. */
export function findIdentity(em: EntityManager, provider: OAuthProvider, providerUserId: string): Promise<UserIdentity | null> {
  return em.getRepository(UserIdentity).findOneBy({ provider, providerUserId });
}

/** Stores a link, new or changed, with the address the provider gave this time. */
export function saveIdentity(
  em: EntityManager,
  link: UserIdentity | null,
  fields: { userId: number; provider: OAuthProvider; providerUserId: string; email: string | null; emailVerified: boolean },
): Promise<UserIdentity> {
  const identities = em.getRepository(UserIdentity);
  const row = link ?? identities.create({ userId: fields.userId, provider: fields.provider, providerUserId: fields.providerUserId });
  row.email = fields.email;
  row.emailVerified = fields.emailVerified;
  return identities.save(row);
}

/** The providers of a user's links, alphabetically (one a link). */
export async function identityProviders(ds: DataSource, userId: number): Promise<OAuthProvider[]> {
  const rows = await ds.getRepository(UserIdentity).find({ where: { userId }, select: { provider: true }, order: { provider: 'ASC' } });
  return rows.map((r) => r.provider);
}
