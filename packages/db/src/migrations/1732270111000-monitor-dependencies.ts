import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitor dependencies (docs/alert-rules.md): the monitors a monitor depends on, and on a
 * notification whether it was suppressed (recorded, sent to nobody) because a parent was offline.
 */
export class MonitorDependencies1732270111000 implements MigrationInterface {
  name = 'MonitorDependencies1732270111000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN depends_on integer[] NOT NULL DEFAULT '{}' CHECK (cardinality(depends_on) <= 20)`);
    await q.query(`
      ALTER TABLE notifications
        ADD COLUMN suppressed boolean NOT NULL DEFAULT false,
        ADD COLUMN suppressed_by integer[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications DROP COLUMN suppressed_by, DROP COLUMN suppressed`);
    await q.query(`ALTER TABLE monitors DROP COLUMN depends_on`);
  }
}
