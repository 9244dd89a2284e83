import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `config_fingerprints` of a channel: per config field, a salted slow hash of the value a
 * configuration file applied (written by `uptime apply`, opaque to the server), so `uptime plan`
 * sees a secret rotated in the environment without the API ever answering the secret
 * (docs/config-as-code.md, "Secrets"). A constant default: adding it rewrites no table.
 */
export class ChannelConfigFingerprints1796520400000 implements MigrationInterface {
  name = 'ChannelConfigFingerprints1796520400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels ADD COLUMN config_fingerprints jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels DROP COLUMN config_fingerprints`);
  }
}
