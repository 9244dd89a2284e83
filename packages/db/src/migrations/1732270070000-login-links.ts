import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time sign-in links (`pnpm cli login-link`, docs/security.md): only the SHA-256 of the
 * link's secret is kept; `used_at` makes it single use, `expires_at` ends it after 15 minutes.
 */
export class LoginLinks1732270070000 implements MigrationInterface {
  name = 'LoginLinks1732270070000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE login_links (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX login_links_user_idx ON login_links (user_id)`);
    await q.query(`CREATE INDEX login_links_expires_idx ON login_links (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS login_links`);
  }
}
