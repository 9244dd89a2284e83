import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries through the service channels (docs/channels.md, "The services"):
 * - `notification_deliveries.channel` takes every channel type (`google_chat` needs more than
 *   the 10 characters the column had);
 * - `phase` gains `acknowledged`: the message that a downtime was acknowledged in this product,
 *   queued by the acknowledgement for the channels that tell their service (PagerDuty's
 *   `acknowledge`), under the same unique key as every message, so acknowledging twice queues it once;
 * - `logged_only`: a sent email that went to the log only, no mail transport being configured
 *   (shown as `logged`, never as sent).
 */
export class ServiceChannelDeliveries1796518300000 implements MigrationInterface {
  name = 'ServiceChannelDeliveries1796518300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_channel_check, DROP CONSTRAINT notification_deliveries_phase_check`);
    await q.query(`
      ALTER TABLE notification_deliveries
        ALTER COLUMN channel TYPE varchar(20),
        ALTER COLUMN phase TYPE varchar(16),
        ADD CONSTRAINT notification_deliveries_channel_check
          CHECK (channel IN ('email', 'slack', 'webhook', 'discord', 'telegram', 'teams', 'pagerduty', 'ntfy', 'pushover', 'google_chat', 'mattermost')),
        ADD CONSTRAINT notification_deliveries_phase_check CHECK (phase IN ('opened', 'resolved', 'acknowledged')),
        ADD COLUMN logged_only boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM notification_deliveries WHERE channel NOT IN ('email', 'slack', 'webhook') OR phase = 'acknowledged'`);
    await q.query(`ALTER TABLE notification_deliveries DROP CONSTRAINT notification_deliveries_channel_check, DROP CONSTRAINT notification_deliveries_phase_check`);
    await q.query(`
      ALTER TABLE notification_deliveries
        DROP COLUMN logged_only,
        ALTER COLUMN channel TYPE varchar(10),
        ALTER COLUMN phase TYPE varchar(10),
        ADD CONSTRAINT notification_deliveries_channel_check CHECK (channel IN ('email', 'slack', 'webhook')),
        ADD CONSTRAINT notification_deliveries_phase_check CHECK (phase IN ('opened', 'resolved'))`);
  }
}
