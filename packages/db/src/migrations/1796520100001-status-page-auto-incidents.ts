import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Draft incidents opened when a monitor goes offline (docs/status-pages.md, "Draft incidents"): a
 * page's `auto_incidents` setting, an incident's `published` flag (visitors and subscribers see
 * only published ones), and what a draft was opened for: its monitor and that monitor's downtime
 * (an `alerts` row of kind downtime, the `incidents` view). One draft per page per downtime, and none while one for the monitor is open on
 * the page: two unique indexes, so notifiers handling the same event at once open one.
 */
export class StatusPageAutoIncidents1796520100001 implements MigrationInterface {
  name = 'StatusPageAutoIncidents1796520100001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE status_pages ADD COLUMN auto_incidents boolean NOT NULL DEFAULT false`);
    await q.query(`
      ALTER TABLE status_page_incidents
        ADD COLUMN published boolean NOT NULL DEFAULT true,
        ADD COLUMN auto_monitor_id integer REFERENCES monitors (id) ON DELETE SET NULL,
        ADD COLUMN auto_downtime_id integer REFERENCES alerts (id) ON DELETE SET NULL`);
    await q.query(
      `CREATE UNIQUE INDEX status_page_incidents_auto_downtime_key ON status_page_incidents (status_page_id, auto_downtime_id) WHERE auto_downtime_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX status_page_incidents_auto_open_key ON status_page_incidents (status_page_id, auto_monitor_id) WHERE auto_monitor_id IS NOT NULL AND resolved_at IS NULL`,
    );
    // Finding the pages that open drafts for a monitor reads few rows: most pages leave it off.
    await q.query(`CREATE INDEX status_pages_auto_incidents_idx ON status_pages (id) WHERE auto_incidents`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS status_pages_auto_incidents_idx`);
    await q.query(`DROP INDEX IF EXISTS status_page_incidents_auto_open_key`);
    await q.query(`DROP INDEX IF EXISTS status_page_incidents_auto_downtime_key`);
    await q.query(`ALTER TABLE status_page_incidents DROP COLUMN auto_downtime_id, DROP COLUMN auto_monitor_id, DROP COLUMN published`);
    await q.query(`ALTER TABLE status_pages DROP COLUMN auto_incidents`);
  }
}
