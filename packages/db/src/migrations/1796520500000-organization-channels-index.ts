import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The organization's own channels (those of no one monitor), indexed apart. Since every monitor
 * has an own email channel (migration 1796520200000), `channels_organization_idx` holds one entry
 * per monitor of the organization, and every read of the organization's channels (the list, its
 * count, a lookup, the default channels a new monitor is attached to) went through all of them to
 * keep the few with no monitor: a create cost Postgres time in proportion to the organization's
 * monitors (docs/capacity.md, "Creating monitors"). `channels_organization_idx` stays: it serves
 * the cascade when an organization is deleted.
 */
export class OrganizationChannelsIndex1796520500000 implements MigrationInterface {
  name = 'OrganizationChannelsIndex1796520500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX channels_organization_shared_idx ON channels (organization_id, id) WHERE monitor_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX channels_organization_shared_idx`);
  }
}
