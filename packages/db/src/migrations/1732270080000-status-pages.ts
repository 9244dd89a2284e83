import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public status pages and badges (docs/status-pages.md): a page lists some of its owner's
 * monitors in order; a badge token belongs to one monitor. Deleting a monitor removes it from
 * every page and revokes its badge (ON DELETE CASCADE on both).
 */
export class StatusPages1732270080000 implements MigrationInterface {
  name = 'StatusPages1732270080000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status_pages (
        id serial PRIMARY KEY,
        owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        -- Unique across all users: the slug is the page's public address.
        slug varchar(64) NOT NULL CONSTRAINT status_pages_slug_key UNIQUE CHECK (slug ~ '^[a-z0-9-]{3,64}$'),
        title varchar(200) NOT NULL,
        description varchar(2000),
        published boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX status_pages_owner_idx ON status_pages (owner_id, id)`);

    await q.query(`
      CREATE TABLE status_page_monitors (
        status_page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        position smallint NOT NULL,
        PRIMARY KEY (status_page_id, monitor_id)
      )`);
    // Deleting a monitor finds its page rows (the cascade, and the cache entries to forget) by this.
    await q.query(`CREATE INDEX status_page_monitors_monitor_idx ON status_page_monitors (monitor_id)`);

    // One badge per monitor. Only the SHA-256 of the token is kept, as for API tokens.
    await q.query(`
      CREATE TABLE monitor_badges (
        monitor_id integer PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE,
        token_hash char(64) NOT NULL CONSTRAINT monitor_badges_token_hash_key UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['monitor_badges', 'status_page_monitors', 'status_pages']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
