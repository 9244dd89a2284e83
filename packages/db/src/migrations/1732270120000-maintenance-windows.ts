import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Maintenance windows (docs/alert-rules.md): a window belongs to one user and covers some of
 * their monitors; deleting either side removes the link (ON DELETE CASCADE). Checks recorded
 * during a window are flagged `maintenance` and left out of the rollups; the monitor keeps
 * whether its latest check fell in one.
 */
export class MaintenanceWindows1732270120000 implements MigrationInterface {
  name = 'MaintenanceWindows1732270120000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE maintenance_windows (
        id serial PRIMARY KEY,
        owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        starts_at timestamptz NOT NULL,
        duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 1 AND 10080),
        repeat varchar(8) NOT NULL CHECK (repeat IN ('none', 'daily', 'weekly')),
        -- ISO weekdays, 1 = Monday … 7 = Sunday; only for weekly windows (empty: the weekday of starts_at).
        weekdays smallint[] NOT NULL DEFAULT '{}',
        timezone varchar(64) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX maintenance_windows_owner_idx ON maintenance_windows (owner_id, id)`);
    await q.query(`
      CREATE TABLE maintenance_window_monitors (
        window_id integer NOT NULL REFERENCES maintenance_windows (id) ON DELETE CASCADE,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        PRIMARY KEY (window_id, monitor_id)
      )`);
    // Every check batch reads the windows of its monitors by this.
    await q.query(`CREATE INDEX maintenance_window_monitors_monitor_idx ON maintenance_window_monitors (monitor_id)`);
    await q.query(`ALTER TABLE check_results ADD COLUMN maintenance boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE monitors ADD COLUMN in_maintenance boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN IF EXISTS in_maintenance`);
    await q.query(`ALTER TABLE check_results DROP COLUMN IF EXISTS maintenance`);
    await q.query(`DROP TABLE IF EXISTS maintenance_window_monitors`);
    await q.query(`DROP TABLE IF EXISTS maintenance_windows`);
  }
}
