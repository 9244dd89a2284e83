import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slow and certificate alerts (docs/alert-rules.md, docs/notifications.md):
 * - alert settings `alert_on_slow` and `certificate_expiry_days` on the monitor;
 * - `alert_episodes`: a period the monitor was slow, or a certificate under the expiry limit. The
 *   check-worker opens and closes them under the monitor's row lock (like incidents); the monitor
 *   holds the open ones. They are not downtimes, so they are not incidents;
 * - a notification is about an incident or about an episode (exactly one), unique per
 *   (episode, type) as per (incident, type); `type` widened for `certificate`;
 * - a status event names the episodes its step opened or closed;
 * - a delivery belongs to a phase of its notification: `opened` (every delivery so far) or
 *   `resolved` (the "no longer slow" message). The phase joins the key the reminders and escalation
 *   migration (1732270130000) left, so a delivery is unique per
 *   (notification, kind, round, phase, channel, recipient).
 */
export class SlowAndCertificateAlerts1732270135000 implements MigrationInterface {
  name = 'SlowAndCertificateAlerts1732270135000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alert_episodes (
        id serial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('slow', 'certificate')),
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        response_time integer,
        response_time_threshold integer,
        certificate_expires_at timestamptz,
        certificate_expiry_days smallint
      )`);
    await q.query(`CREATE INDEX alert_episodes_monitor_idx ON alert_episodes (monitor_id, started_at)`);
    await q.query(`
      ALTER TABLE monitors
        ADD COLUMN alert_on_slow boolean NOT NULL DEFAULT false,
        ADD COLUMN certificate_expiry_days smallint NOT NULL DEFAULT 14 CHECK (certificate_expiry_days BETWEEN 0 AND 365),
        ADD COLUMN open_slow_episode_id integer,
        ADD COLUMN open_certificate_episode_id integer`);
    await q.query(`
      ALTER TABLE notifications
        ALTER COLUMN incident_id DROP NOT NULL,
        ALTER COLUMN type TYPE varchar(16),
        ADD COLUMN episode_id integer REFERENCES alert_episodes (id) ON DELETE CASCADE,
        ADD CONSTRAINT notifications_subject_check CHECK ((incident_id IS NULL) <> (episode_id IS NULL)),
        ADD CONSTRAINT notifications_episode_type_key UNIQUE (episode_id, type)`);
    await q.query(`ALTER TABLE status_events ADD COLUMN episode_ids integer[] NOT NULL DEFAULT '{}'`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD COLUMN phase varchar(10) NOT NULL DEFAULT 'opened' CHECK (phase IN ('opened', 'resolved')),
        DROP CONSTRAINT notification_deliveries_key,
        ADD CONSTRAINT notification_deliveries_key UNIQUE (notification_id, kind, round, phase, channel, recipient)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM notification_deliveries WHERE phase <> 'opened'`);
    await q.query(`
      ALTER TABLE notification_deliveries
        DROP CONSTRAINT notification_deliveries_key,
        DROP COLUMN phase,
        ADD CONSTRAINT notification_deliveries_key UNIQUE (notification_id, kind, round, channel, recipient)`);
    await q.query(`ALTER TABLE status_events DROP COLUMN episode_ids`);
    await q.query(`DELETE FROM notifications WHERE incident_id IS NULL`);
    await q.query(`
      ALTER TABLE notifications
        DROP CONSTRAINT notifications_episode_type_key,
        DROP CONSTRAINT notifications_subject_check,
        DROP COLUMN episode_id,
        ALTER COLUMN type TYPE varchar(10),
        ALTER COLUMN incident_id SET NOT NULL`);
    await q.query(`
      ALTER TABLE monitors
        DROP COLUMN open_certificate_episode_id, DROP COLUMN open_slow_episode_id,
        DROP COLUMN certificate_expiry_days, DROP COLUMN alert_on_slow`);
    await q.query(`DROP TABLE alert_episodes`);
  }
}
