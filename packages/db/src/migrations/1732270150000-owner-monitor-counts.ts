import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many monitors each owner has, kept beside them: `GET /monitors` without filters reads its
 * `total` here instead of counting the owner's rows (docs/capacity.md, "Hot queries and their
 * plans": a Seq Scan of every monitor of the owner on each list page, 7 ms at 30,000 monitors on
 * a quiet database, growing with them and with the dead rows the checks' updates leave).
 *
 * An owner's count is split over 16 rows, one per `id % 16` (a row counts the owner's monitors of
 * its slot, so none goes below zero), and read as their sum. A create holds its row locked from
 * its INSERT to the end of its commit's flush, so creates of one owner queue on it: with a single
 * row, 20 connections inserting one monitor each at a time made 540 inserts/s where they made
 * 2,100–2,900 without the trigger; with 16, consecutive ids land on different rows and they made
 * 2,000–2,400 (docs/capacity.md, "`GET /monitors` under checks, and the owner's monitor count").
 *
 * Triggers keep it, so every writer counts, the API's and any SQL alike:
 * - insert and delete are statement-level with transition tables: a bulk statement changes each
 *   of the owner's rows once (16 at most), not once per monitor. An insert takes them in key order,
 *   so two inserting statements lock the rows they share in the same order;
 * - an owner change is a row-level trigger on `UPDATE OF owner_id` with a WHEN: Postgres refuses
 *   transition tables on a trigger with a column list, and without one every UPDATE of monitors
 *   (each check batch's) would copy its old and new rows for nothing. Nothing in the product moves
 *   a monitor to another owner; this keeps the count right if an operator does;
 * - TRUNCATE empties the counts too (it fires no delete trigger).
 * An owner deleted takes their rows by cascade.
 *
 * The triggers are created before the backfill in this one transaction: CREATE TRIGGER locks
 * monitors against writes until the commit, so no monitor is missed or counted twice.
 */
/** Rows per owner: more than the creates of one owner that commit at once in practice. */
const SLOTS = 16;

export class OwnerMonitorCounts1732270150000 implements MigrationInterface {
  name = 'OwnerMonitorCounts1732270150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE owner_monitor_counts (
        owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        slot smallint NOT NULL CHECK (slot BETWEEN 0 AND ${SLOTS - 1}),
        monitors integer NOT NULL CHECK (monitors >= 0),
        PRIMARY KEY (owner_id, slot)
      )`);
    await q.query(`
      CREATE FUNCTION owner_monitor_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO owner_monitor_counts AS c (owner_id, slot, monitors)
        SELECT owner_id, id % ${SLOTS}, count(*) FROM inserted_monitors GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (owner_id, slot) DO UPDATE SET monitors = c.monitors + EXCLUDED.monitors;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION owner_monitor_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE owner_monitor_counts c SET monitors = c.monitors - d.n
          FROM (SELECT owner_id, id % ${SLOTS} AS slot, count(*)::int AS n FROM deleted_monitors GROUP BY 1, 2) d
         WHERE c.owner_id = d.owner_id AND c.slot = d.slot;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION owner_monitor_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE owner_monitor_counts SET monitors = monitors - 1 WHERE owner_id = OLD.owner_id AND slot = OLD.id % ${SLOTS};
        INSERT INTO owner_monitor_counts AS c (owner_id, slot, monitors) VALUES (NEW.owner_id, NEW.id % ${SLOTS}, 1)
        ON CONFLICT (owner_id, slot) DO UPDATE SET monitors = c.monitors + 1;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION owner_monitor_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM owner_monitor_counts;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER monitors_count_insert AFTER INSERT ON monitors
        REFERENCING NEW TABLE AS inserted_monitors FOR EACH STATEMENT EXECUTE FUNCTION owner_monitor_counts_add()`);
    await q.query(`
      CREATE TRIGGER monitors_count_delete AFTER DELETE ON monitors
        REFERENCING OLD TABLE AS deleted_monitors FOR EACH STATEMENT EXECUTE FUNCTION owner_monitor_counts_remove()`);
    await q.query(`
      CREATE TRIGGER monitors_count_move AFTER UPDATE OF owner_id ON monitors
        FOR EACH ROW WHEN (OLD.owner_id IS DISTINCT FROM NEW.owner_id) EXECUTE FUNCTION owner_monitor_counts_move()`);
    await q.query(`
      CREATE TRIGGER monitors_count_truncate AFTER TRUNCATE ON monitors
        FOR EACH STATEMENT EXECUTE FUNCTION owner_monitor_counts_clear()`);
    await q.query(
      `INSERT INTO owner_monitor_counts (owner_id, slot, monitors) SELECT owner_id, id % ${SLOTS}, count(*) FROM monitors GROUP BY 1, 2`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER monitors_count_truncate ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_move ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_delete ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_insert ON monitors`);
    await q.query(
      `DROP FUNCTION owner_monitor_counts_clear(), owner_monitor_counts_move(), owner_monitor_counts_remove(), owner_monitor_counts_add()`,
    );
    await q.query(`DROP TABLE owner_monitor_counts`);
  }
}
