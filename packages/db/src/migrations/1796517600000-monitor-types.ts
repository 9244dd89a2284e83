import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitor types beyond http (docs/monitors.md, "Monitor types"): the text a tcp check sends once
 * connected, and the types a row may hold. Every existing row is http, the column's default.
 */
export class MonitorTypes1796517600000 implements MigrationInterface {
  name = 'MonitorTypes1796517600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN tcp_send text NULL`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors DROP COLUMN tcp_send`);
  }
}
