import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time a monitor went unchecked: more than two intervals between one check and the next while
 * it was active (all workers down, a queue backlog). Written by the check-worker when checks
 * resume (insertNoDataSpans() in services/check-worker/src/check-batch.repository.ts); read with
 * a monitor's history and stats (docs/statistics.md). Few rows: one per such interruption.
 */
export class NoDataSpans1732270021000 implements MigrationInterface {
  name = 'NoDataSpans1732270021000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE no_data_spans (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        ended_at timestamptz NOT NULL,
        CHECK (ended_at > started_at)
      )`);
    await q.query(`CREATE INDEX no_data_spans_monitor_end ON no_data_spans (monitor_id, ended_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE no_data_spans`);
  }
}
