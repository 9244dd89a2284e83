import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page of `monitors` for its rows' next versions. Every result batch updates the
 * state columns of the monitors it checked (last_check, response_time, status...), about once
 * per monitor per interval. Of those only `status` is indexed, and it rarely changes, so Postgres
 * can keep such an update on the row's page as a heap-only tuple (HOT), touching no index, as
 * long as the page has room;
 * full pages (the default fillfactor of 100) made almost every update a new row elsewhere plus a
 * new entry in each of the table's eight indexes, three of them GIN. The list read those indexes
 * and their dead entries on every page (docs/capacity.md, "`GET /monitors` under checks").
 *
 * Rows written from now on leave the room; existing pages get it as their rows move, which is
 * each row's first update.
 */
export class MonitorsFillfactor1732270160000 implements MigrationInterface {
  name = 'MonitorsFillfactor1732270160000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors SET (fillfactor = 50)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors RESET (fillfactor)`);
  }
}
