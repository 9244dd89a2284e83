import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A status page may be served on a host name of its own (docs/status-pages.md, "Custom domains"):
 * `custom_domain`, a lower-case DNS name, unique across the service (one host, one page).
 */
export class StatusPageCustomDomains1796518400001 implements MigrationInterface {
  name = 'StatusPageCustomDomains1796518400001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE status_pages ADD COLUMN custom_domain varchar(253) CHECK (custom_domain = lower(custom_domain))`);
    await q.query(`CREATE UNIQUE INDEX status_pages_custom_domain_key ON status_pages (custom_domain) WHERE custom_domain IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX status_pages_custom_domain_key`);
    await q.query(`ALTER TABLE status_pages DROP COLUMN custom_domain`);
  }
}
