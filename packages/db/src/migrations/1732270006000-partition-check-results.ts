import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `
  id bigint NOT NULL DEFAULT nextval('check_results_id_seq'),
  scheduled_at timestamptz NOT NULL,
  monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
  response_time integer,
  start_lag_ms integer NOT NULL DEFAULT 0,
  status_code smallint,
  ok boolean NOT NULL,
  error text`;
const COLUMN_LIST = 'id, scheduled_at, monitor_id, response_time, start_lag_ms, status_code, ok, error';

async function addIndexesAndTrigger(q: QueryRunner): Promise<void> {
  await q.query(`CREATE UNIQUE INDEX check_results_monitor_time_key ON check_results (monitor_id, scheduled_at)`);
  await q.query(`CREATE INDEX check_results_scheduled_brin ON check_results USING brin (scheduled_at)`);
  await q.query(`
    CREATE TRIGGER check_results_cascade_locations AFTER DELETE ON check_results
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION delete_location_results_of_gone_checks()`);
}

/**
 * Partitions check_results by UTC day of scheduled_at (packages/db/src/result-partitions.ts):
 * retention drops a day's table instead of deleting its rows one by one, and a closed day's key
 * index is rebuilt packed. Existing rows go to the partition of their day, created here for
 * every day that has rows, from yesterday to a week ahead; the default partition takes a row of
 * any other day. The partitions' names are fixed here: the maintenance job keeps creating them
 * ahead with the same names.
 */
export class PartitionCheckResults1732270006000 implements MigrationInterface {
  name = 'PartitionCheckResults1732270006000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results RENAME TO check_results_unpartitioned`);
    await q.query(`DROP TRIGGER check_results_cascade_locations ON check_results_unpartitioned`);
    await q.query(`ALTER INDEX check_results_monitor_time_key RENAME TO check_results_unpartitioned_key`);
    await q.query(`ALTER INDEX check_results_scheduled_brin RENAME TO check_results_unpartitioned_brin`);
    await q.query(`CREATE TABLE check_results (${COLUMNS}) PARTITION BY RANGE (scheduled_at)`);
    await q.query(`CREATE TABLE check_results_default PARTITION OF check_results DEFAULT`);
    const days: { day: Date }[] = await q.query(`
      SELECT DISTINCT date_trunc('day', scheduled_at, 'UTC') AS day FROM check_results_unpartitioned
      UNION
      SELECT generate_series(date_trunc('day', now(), 'UTC') - interval '1 day', date_trunc('day', now(), 'UTC') + interval '7 days', interval '1 day')`);
    for (const { day } of days) {
      const name = `check_results_p${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
      const end = new Date(day.getTime() + 86_400_000);
      await q.query(`CREATE TABLE ${name} PARTITION OF check_results FOR VALUES FROM ('${day.toISOString()}') TO ('${end.toISOString()}')`);
    }
    await q.query(`INSERT INTO check_results (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM check_results_unpartitioned`);
    // Before the drop: the sequence belongs to the old table and would go with it.
    await q.query(`ALTER SEQUENCE check_results_id_seq OWNED BY check_results.id`);
    await q.query(`DROP TABLE check_results_unpartitioned`);
    await addIndexesAndTrigger(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results RENAME TO check_results_partitioned`);
    await q.query(`DROP TRIGGER check_results_cascade_locations ON check_results_partitioned`);
    await q.query(`ALTER INDEX check_results_monitor_time_key RENAME TO check_results_partitioned_key`);
    await q.query(`ALTER INDEX check_results_scheduled_brin RENAME TO check_results_partitioned_brin`);
    await q.query(`CREATE TABLE check_results (${COLUMNS})`);
    await q.query(`INSERT INTO check_results (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM check_results_partitioned`);
    await q.query(`ALTER SEQUENCE check_results_id_seq OWNED BY check_results.id`);
    await q.query(`DROP TABLE check_results_partitioned`);
    await addIndexesAndTrigger(q);
  }
}
