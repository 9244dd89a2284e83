import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-user preferences (docs/dashboard.md); a user without a row has the defaults. Also the indexes the
 * statistics and retention reads need.
 */
export class UserPreferences1732270002000 implements MigrationInterface {
  name = 'UserPreferences1732270002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_preferences (
        user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        timezone varchar(64) NOT NULL DEFAULT 'UTC',
        email_notifications boolean NOT NULL DEFAULT true,
        default_check_interval integer NOT NULL DEFAULT 300,
        default_timeout integer NOT NULL DEFAULT 30,
        default_locations text[] NOT NULL DEFAULT '{}',
        theme varchar(10) NOT NULL DEFAULT 'system',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Retention deletes rollups by age across all monitors, and the uptime of many monitors reads
    // only their newest buckets; the primary keys lead with monitor_id, which serves neither.
    await q.query(`CREATE INDEX check_rollups_5m_bucket_idx ON check_rollups_5m (bucket)`);
    await q.query(`CREATE INDEX check_rollups_1h_bucket_idx ON check_rollups_1h (bucket)`);
    await q.query(`CREATE INDEX check_rollups_1d_bucket_idx ON check_rollups_1d (bucket)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS check_rollups_1d_bucket_idx`);
    await q.query(`DROP INDEX IF EXISTS check_rollups_1h_bucket_idx`);
    await q.query(`DROP INDEX IF EXISTS check_rollups_5m_bucket_idx`);
    await q.query(`DROP TABLE IF EXISTS user_preferences`);
  }
}
