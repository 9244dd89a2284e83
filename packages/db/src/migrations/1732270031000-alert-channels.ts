import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slack and signed webhooks as alert channels (docs/webhooks.md): where to send, and the
 * webhook's HMAC key, kept in clear since every delivery is signed with it.
 */
export class AlertChannels1732270031000 implements MigrationInterface {
  name = 'AlertChannels1732270031000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE monitors
        ADD COLUMN slack_webhook_url varchar(2048),
        ADD COLUMN webhook_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN webhook_url varchar(2048),
        ADD COLUMN webhook_secret varchar(128)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE monitors
        DROP COLUMN slack_webhook_url, DROP COLUMN webhook_enabled, DROP COLUMN webhook_url, DROP COLUMN webhook_secret`);
  }
}
