import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries of every channel in one table, and leases instead of claims that go stale after
 * minutes (docs/reliability.md, "Notifications under faults"):
 * - `email_deliveries` becomes `notification_deliveries`, one row per (notification, channel,
 *   recipient), so Slack and webhooks share the claim, the retries and the record of email;
 * - a claim is a lease (`lease_until`, renewed while the send runs) held by one `claim_token`, so
 *   a sender that died is overtaken within seconds and a late one cannot overwrite the outcome;
 * - `next_attempt_at` paces retries, `possible_duplicate` marks a delivery one of whose attempts
 *   may have reached the receiver before it was sent again;
 * - `provider_pauses` holds a provider's "not before" (429/503 with Retry-After or
 *   X-RateLimit-Reset), shared by every notifier.
 */
export class NotificationDeliveries1732270030000 implements MigrationInterface {
  name = 'NotificationDeliveries1732270030000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE email_deliveries RENAME TO notification_deliveries`);
    await q.query(`ALTER SEQUENCE email_deliveries_id_seq RENAME TO notification_deliveries_id_seq`);
    await q.query(`ALTER INDEX email_deliveries_pkey RENAME TO notification_deliveries_pkey`);
    await q.query(`ALTER TABLE notification_deliveries DROP CONSTRAINT email_deliveries_notification_recipient_key`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD COLUMN channel varchar(10) NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'slack', 'webhook')),
        ALTER COLUMN recipient TYPE varchar(2048),
        ADD COLUMN delivery_uid uuid NOT NULL DEFAULT gen_random_uuid(),
        ADD COLUMN claim_token uuid,
        ADD COLUMN lease_until timestamptz,
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN last_attempt_at timestamptz,
        ADD COLUMN possible_duplicate boolean NOT NULL DEFAULT false,
        ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`UPDATE notification_deliveries SET last_attempt_at = claimed_at, lease_until = claimed_at`);
    await q.query(`ALTER TABLE notification_deliveries DROP COLUMN claimed_at`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ADD CONSTRAINT notification_deliveries_status_check CHECK (status IN ('pending', 'sending', 'ambiguous', 'sent', 'failed')),
        ADD CONSTRAINT notification_deliveries_key UNIQUE (notification_id, channel, recipient)`);
    // What the sweeper of every notifier reads every few seconds: only the open few.
    await q.query(`
      CREATE INDEX notification_deliveries_open_idx ON notification_deliveries (next_attempt_at)
       WHERE status IN ('pending', 'sending', 'ambiguous')`);
    await q.query(`
      CREATE TABLE provider_pauses (
        provider varchar(300) PRIMARY KEY,
        paused_until timestamptz NOT NULL,
        reason text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_pauses`);
    // Other channels had no table before: their rows go.
    await q.query(`DELETE FROM notification_deliveries WHERE channel <> 'email'`);
    await q.query(`DROP INDEX notification_deliveries_open_idx`);
    await q.query(`ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_key, DROP CONSTRAINT notification_deliveries_status_check`);
    await q.query(`ALTER TABLE notification_deliveries ADD COLUMN claimed_at timestamptz`);
    await q.query(`UPDATE notification_deliveries SET claimed_at = last_attempt_at, status = CASE WHEN status = 'ambiguous' THEN 'pending' ELSE status END`);
    await q.query(`
      ALTER TABLE notification_deliveries
        DROP COLUMN channel, DROP COLUMN delivery_uid, DROP COLUMN claim_token, DROP COLUMN lease_until,
        DROP COLUMN next_attempt_at, DROP COLUMN last_attempt_at, DROP COLUMN possible_duplicate, DROP COLUMN created_at,
        ALTER COLUMN recipient TYPE varchar(320)`);
    await q.query(`ALTER TABLE notification_deliveries ADD CONSTRAINT email_deliveries_notification_recipient_key UNIQUE (notification_id, recipient)`);
    await q.query(`ALTER INDEX notification_deliveries_pkey RENAME TO email_deliveries_pkey`);
    await q.query(`ALTER SEQUENCE notification_deliveries_id_seq RENAME TO email_deliveries_id_seq`);
    await q.query(`ALTER TABLE notification_deliveries RENAME TO email_deliveries`);
  }
}
