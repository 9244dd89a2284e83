import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The resources a configuration file declares (docs/config-as-code.md). */
const TABLES = ['monitors', 'channels', 'maintenance_windows', 'status_pages'] as const;

/**
 * A stable `key` per resource, unique per kind within an organization (null for what was made in
 * the UI), and `managed_by`: 'config' for what `uptime apply` made or adopted, so `--prune`
 * deletes only those and never a resource made by hand (docs/config-as-code.md). Both columns are
 * nullable without a default: adding them rewrites no table.
 */
export class ResourceKeys1796520000000 implements MigrationInterface {
  name = 'ResourceKeys1796520000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN key varchar(100), ADD COLUMN managed_by varchar(10)`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_managed_by_check CHECK (managed_by IN ('config'))`);
      await q.query(`CREATE UNIQUE INDEX ${table}_key_idx ON ${table} (organization_id, key) WHERE key IS NOT NULL`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`DROP INDEX ${table}_key_idx`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN key, DROP COLUMN managed_by`);
    }
  }
}
