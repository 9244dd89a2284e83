import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Raw results are the one table that grows with every check (1,000 a second at capacity), so
 * they keep only the index they need: (monitor_id, scheduled_at), which identifies a check and
 * serves history. The surrogate id stays (the API shows it) without a unique index of its own,
 * and retention ranges use a BRIN index on the planned time, a few pages for the whole table.
 * Together this takes a result from about 150 to about 120 bytes on disk (docs/capacity.md).
 * Location results lose their foreign key to the id; a statement trigger keeps the cascade.
 */
export class LeanCheckResults1732270004000 implements MigrationInterface {
  name = 'LeanCheckResults1732270004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_location_results DROP CONSTRAINT IF EXISTS check_location_results_check_result_id_fkey`);
    await q.query(`ALTER TABLE check_results DROP CONSTRAINT check_results_pkey`);
    await q.query(`DROP INDEX check_results_checked_at_idx`);
    await q.query(`CREATE INDEX check_results_scheduled_brin ON check_results USING brin (scheduled_at)`);
    await q.query(`CREATE INDEX check_location_results_checked_brin ON check_location_results USING brin (checked_at)`);
    await q.query(`
      CREATE FUNCTION delete_location_results_of_gone_checks() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM check_location_results WHERE check_result_id IN (SELECT id FROM gone);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER check_results_cascade_locations AFTER DELETE ON check_results
      REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_location_results_of_gone_checks()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS check_results_cascade_locations ON check_results`);
    await q.query(`DROP FUNCTION IF EXISTS delete_location_results_of_gone_checks()`);
    await q.query(`DROP INDEX IF EXISTS check_location_results_checked_brin`);
    await q.query(`DROP INDEX IF EXISTS check_results_scheduled_brin`);
    await q.query(`CREATE INDEX check_results_checked_at_idx ON check_results (checked_at)`);
    await q.query(`ALTER TABLE check_results ADD PRIMARY KEY (id)`);
    await q.query(
      `ALTER TABLE check_location_results ADD CONSTRAINT check_location_results_check_result_id_fkey FOREIGN KEY (check_result_id) REFERENCES check_results (id) ON DELETE CASCADE`,
    );
  }
}
