import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The channels a monitor's escalation goes to (docs/alert-rules.md, "Escalation"), beside its
 * `escalation_recipients`: the organization's channels only (never a monitor's own, which are its
 * alert-settings fields: docs/channels.md). Deleting the channel or the monitor removes the row.
 */
export class EscalationChannels1796520200001 implements MigrationInterface {
  name = 'EscalationChannels1796520200001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE monitor_escalation_channels (
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        channel_id integer NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
        PRIMARY KEY (monitor_id, channel_id)
      )`);
    await q.query(`CREATE INDEX monitor_escalation_channels_channel_idx ON monitor_escalation_channels (channel_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE monitor_escalation_channels`);
  }
}
