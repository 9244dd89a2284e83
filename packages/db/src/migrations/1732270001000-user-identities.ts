import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth provider accounts linked to a user (docs/security.md): one user may sign in with several
 * providers, and a provider account belongs to exactly one user.
 */
export class UserIdentities1732270001000 implements MigrationInterface {
  name = 'UserIdentities1732270001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_identities (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider varchar(32) NOT NULL,
        provider_user_id varchar(255) NOT NULL,
        email varchar(320),
        email_verified boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_identities_provider_account_key UNIQUE (provider, provider_user_id)
      )`);
    await q.query(`CREATE INDEX user_identities_user_idx ON user_identities (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS user_identities`);
  }
}
