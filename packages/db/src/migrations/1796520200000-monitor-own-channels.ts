import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The monitor's own email, Slack and webhook settings become channels (docs/channels.md, "The
 * monitor's own channels"): one delivery path for every alert.
 *
 * - `channels.monitor_id`: a channel that belongs to one monitor (its "own" email, Slack or
 *   webhook channel, at most one of each type), written through the old alert-settings fields
 *   and never listed among the organization's channels. It is enabled while attached
 *   (`monitor_channels`), so a disabled Slack keeps its URL as before.
 * - Every monitor gets its own email channel here, from `email_enabled` and `email_recipients`
 *   (no secret: plain SQL), and every monitor made from now on gets one at insert (the trigger
 *   `monitors_own_email_channel`), whichever path inserts it. An empty recipient list keeps its
 *   meaning: the organization's members with alerts on.
 * - The Slack URL and the webhook's signing key must be sealed with SECRETS_KEY, which a
 *   migration does not hold: they wait in `monitor_alert_carryover` until the API or a notifier
 *   starts and carries them over under an advisory lock (`carryOverAlertSettings()` in
 *   packages/db/src/own-channels/carry-over.ts), before either serves or sends.
 * - Deliveries recorded before keep their meaning: an own email delivery names the own email
 *   channel (its recipient, and so its unique key, unchanged); the carry-over rewrites the Slack
 *   and webhook ones to `channel:<id>` of the own channel, which both removes the plain URL from
 *   the table and makes a later queueing of the same message a no-op under the unique key.
 * - The seven columns leave `monitors`.
 */
export class MonitorOwnChannels1796520200000 implements MigrationInterface {
  name = 'MonitorOwnChannels1796520200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels ADD COLUMN monitor_id integer REFERENCES monitors (id) ON DELETE CASCADE`);
    await q.query(`CREATE UNIQUE INDEX channels_monitor_type_key ON channels (monitor_id, type) WHERE monitor_id IS NOT NULL`);
    await q.query(`
      INSERT INTO channels (organization_id, owner_id, name, type, config, monitor_id)
      SELECT organization_id, owner_id, 'Monitor email', 'email', jsonb_build_object('recipients', to_jsonb(email_recipients)), id
        FROM monitors`);
    await q.query(`
      INSERT INTO monitor_channels (monitor_id, channel_id)
      SELECT m.id, c.id FROM monitors m JOIN channels c ON c.monitor_id = m.id AND c.type = 'email'
       WHERE m.email_enabled`);
    await q.query(`
      UPDATE notification_deliveries d SET channel_id = c.id
        FROM notifications n, channels c
       WHERE n.id = d.notification_id AND d.channel = 'email' AND d.channel_id IS NULL
         AND c.monitor_id = n.monitor_id AND c.type = 'email'`);
    await q.query(`
      CREATE TABLE monitor_alert_carryover (
        monitor_id integer PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE,
        slack_enabled boolean NOT NULL,
        slack_webhook_url varchar(2048),
        webhook_enabled boolean NOT NULL,
        webhook_url varchar(2048),
        webhook_secret varchar(128)
      )`);
    await q.query(`
      INSERT INTO monitor_alert_carryover (monitor_id, slack_enabled, slack_webhook_url, webhook_enabled, webhook_url, webhook_secret)
      SELECT id, slack_enabled, slack_webhook_url, webhook_enabled, webhook_url, webhook_secret FROM monitors
       WHERE slack_webhook_url IS NOT NULL OR webhook_url IS NOT NULL OR webhook_secret IS NOT NULL`);
    await q.query(`
      ALTER TABLE monitors
        DROP COLUMN email_enabled, DROP COLUMN email_recipients, DROP COLUMN slack_enabled, DROP COLUMN slack_webhook_url,
        DROP COLUMN webhook_enabled, DROP COLUMN webhook_url, DROP COLUMN webhook_secret`);
    await q.query(`
      CREATE FUNCTION monitor_own_email_channel() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE channel integer;
      BEGIN
        INSERT INTO channels (organization_id, owner_id, name, type, config, monitor_id)
        VALUES (NEW.organization_id, NEW.owner_id, 'Monitor email', 'email', '{"recipients": []}', NEW.id)
        RETURNING id INTO channel;
        INSERT INTO monitor_channels (monitor_id, channel_id) VALUES (NEW.id, channel);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER monitors_own_email_channel AFTER INSERT ON monitors FOR EACH ROW EXECUTE FUNCTION monitor_own_email_channel()`);
  }

  /**
   * Back to the columns: the email settings from the own email channels, the Slack and webhook
   * ones from what still waits to be carried over and from the own channels' plain fields. A
   * Slack URL or signing key already sealed cannot be read back by SQL: those monitors come back
   * with Slack or the webhook off and without them.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER monitors_own_email_channel ON monitors`);
    await q.query(`DROP FUNCTION monitor_own_email_channel()`);
    await q.query(`
      ALTER TABLE monitors
        ADD COLUMN email_enabled boolean NOT NULL DEFAULT true,
        ADD COLUMN email_recipients text[] NOT NULL DEFAULT '{}',
        ADD COLUMN slack_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN slack_webhook_url varchar(2048),
        ADD COLUMN webhook_enabled boolean NOT NULL DEFAULT false,
        ADD COLUMN webhook_url varchar(2048),
        ADD COLUMN webhook_secret varchar(128)`);
    await q.query(`
      UPDATE monitors m
         SET email_enabled = EXISTS (SELECT 1 FROM monitor_channels mc WHERE mc.monitor_id = m.id AND mc.channel_id = c.id),
             email_recipients = ARRAY(SELECT jsonb_array_elements_text(c.config -> 'recipients'))
        FROM channels c WHERE c.monitor_id = m.id AND c.type = 'email'`);
    await q.query(`
      UPDATE monitors m SET webhook_url = c.config ->> 'url'
        FROM channels c WHERE c.monitor_id = m.id AND c.type = 'webhook'`);
    await q.query(`
      UPDATE monitors m
         SET slack_enabled = o.slack_enabled, slack_webhook_url = o.slack_webhook_url,
             webhook_enabled = o.webhook_enabled, webhook_url = o.webhook_url, webhook_secret = o.webhook_secret
        FROM monitor_alert_carryover o WHERE o.monitor_id = m.id`);
    await q.query(`DROP TABLE monitor_alert_carryover`);
    await q.query(`DELETE FROM channels WHERE monitor_id IS NOT NULL`);
    await q.query(`DROP INDEX channels_monitor_type_key`);
    await q.query(`ALTER TABLE channels DROP COLUMN monitor_id`);
  }
}
