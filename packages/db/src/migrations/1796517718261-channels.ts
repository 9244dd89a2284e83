import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notification channels as organization resources (docs/channels.md).
 *
 * - `channels`: one integration set up once (`type` and its `config`), held by an organization
 *   like a monitor is. `config` holds the type's plain fields; `sealed_secrets` its write-only
 *   fields (tokens, webhook URLs that carry a secret), as one AES-256-GCM box sealed with
 *   SECRETS_KEY by the API (packages/db/src/secrets/), so a dump of the database shows none;
 *   `secret_fields` names the ones set, so an answer says `<field>_set` without opening the box.
 *   `type` lists every type the product names, so adding a sender needs no migration.
 * - `monitor_channels`: which channels a monitor's alerts go to. Deleting either side detaches.
 * - `notification_deliveries.channel_id`: the channel a delivery goes through (null: the monitor's own settings).
 *
 * A channel written without `organization_id` lands in its creator's personal organization, by
 * the same trigger function as the other tenant tables.
 */
export class Channels1796517718261 implements MigrationInterface {
  name = 'Channels1796517718261';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE channels (
        id serial PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        owner_id integer REFERENCES users (id) ON DELETE SET NULL,
        name varchar(100) NOT NULL,
        type varchar(20) NOT NULL CHECK (type IN ('email', 'slack', 'webhook', 'discord', 'telegram', 'teams', 'pagerduty', 'ntfy', 'pushover', 'google_chat', 'mattermost')),
        config jsonb NOT NULL DEFAULT '{}',
        sealed_secrets text,
        secret_fields text[] NOT NULL DEFAULT '{}',
        is_default boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX channels_organization_idx ON channels (organization_id, id)`);
    await q.query(`
      CREATE TRIGGER channels_organization BEFORE INSERT ON channels
        FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION organization_of_creator('owner_id')`);
    await q.query(`
      CREATE TABLE monitor_channels (
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        channel_id integer NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
        PRIMARY KEY (monitor_id, channel_id)
      )`);
    await q.query(`CREATE INDEX monitor_channels_channel_idx ON monitor_channels (channel_id)`);
    // A delivery to a channel names it; its recipient is then an address (email) or
    // `channel:<id>`, never the channel's secret URL.
    await q.query(`ALTER TABLE notification_deliveries ADD COLUMN channel_id integer REFERENCES channels (id) ON DELETE SET NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notification_deliveries DROP COLUMN channel_id`);
    await q.query(`DROP TABLE monitor_channels`);
    await q.query(`DROP TABLE channels`);
  }
}
