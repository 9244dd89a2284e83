import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reminders and escalation of an unacknowledged downtime (docs/alert-rules.md):
 * - the monitor's alert settings `reminder_interval_minutes`, `escalation_recipients`,
 *   `escalation_after_minutes`;
 * - `notification_followups`, one row per reminder round or escalation of a downtime, keyed by
 *   (notification, kind, round): inserting it is what claims the follow-up, so of any number of
 *   notifiers and sweeps exactly one queues its emails;
 * - deliveries say which message they carry (`kind`: the notification's own `notice`, a
 *   `reminder`, the `escalation`; `round`: the reminder's number), the unique key grows by both,
 *   and a follow-up the downtime outlived (acknowledged or ended before it was sent) ends
 *   `cancelled`;
 * - a partial index on the open, unacknowledged downtimes the notifiers sweep.
 */
export class RemindersAndEscalation1732270130000 implements MigrationInterface {
  name = 'RemindersAndEscalation1732270130000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE monitors
        ADD COLUMN reminder_interval_minutes integer CHECK (reminder_interval_minutes BETWEEN 5 AND 1440),
        ADD COLUMN escalation_recipients text[] NOT NULL DEFAULT '{}' CHECK (cardinality(escalation_recipients) <= 20),
        ADD COLUMN escalation_after_minutes integer CHECK (escalation_after_minutes BETWEEN 5 AND 1440)`);
    await q.query(`
      CREATE TABLE notification_followups (
        notification_id integer NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('reminder', 'escalation')),
        round integer NOT NULL CHECK (round >= 1),
        due_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (notification_id, kind, round)
      )`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD COLUMN kind varchar(10) NOT NULL DEFAULT 'notice' CHECK (kind IN ('notice', 'reminder', 'escalation')),
        ADD COLUMN round integer NOT NULL DEFAULT 0,
        DROP CONSTRAINT notification_deliveries_key,
        DROP CONSTRAINT notification_deliveries_status_check`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD CONSTRAINT notification_deliveries_key UNIQUE (notification_id, kind, round, channel, recipient),
        ADD CONSTRAINT notification_deliveries_status_check CHECK (status IN ('pending', 'sending', 'ambiguous', 'sent', 'failed', 'cancelled'))`);
    await q.query(`
      CREATE INDEX notifications_open_downtime_idx ON notifications (id)
       WHERE type = 'downtime' AND status = 'active' AND NOT acknowledged AND NOT suppressed`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications_open_downtime_idx`);
    await q.query(`DELETE FROM notification_deliveries WHERE kind <> 'notice'`);
    await q.query(`UPDATE notification_deliveries SET status = 'failed' WHERE status = 'cancelled'`);
    await q.query(`
      ALTER TABLE notification_deliveries
        DROP CONSTRAINT notification_deliveries_key,
        DROP CONSTRAINT notification_deliveries_status_check,
        DROP COLUMN round,
        DROP COLUMN kind`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD CONSTRAINT notification_deliveries_key UNIQUE (notification_id, channel, recipient),
        ADD CONSTRAINT notification_deliveries_status_check CHECK (status IN ('pending', 'sending', 'ambiguous', 'sent', 'failed'))`);
    await q.query(`DROP TABLE notification_followups`);
    await q.query(`ALTER TABLE monitors DROP COLUMN escalation_after_minutes, DROP COLUMN escalation_recipients, DROP COLUMN reminder_interval_minutes`);
  }
}
