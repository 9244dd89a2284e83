import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slow responses and recovery confirmation (docs/alert-rules.md): a monitor's optional
 * `response_time_threshold`, its `recovery_threshold`, why it reads warning (`status_reason`),
 * and the successes in a row counted while it is offline.
 */
export class SlowAndRecoveryThresholds1732270110000 implements MigrationInterface {
  name = 'SlowAndRecoveryThresholds1732270110000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE monitors
        ADD COLUMN response_time_threshold integer CHECK (response_time_threshold BETWEEN 1 AND 300000),
        ADD COLUMN recovery_threshold integer NOT NULL DEFAULT 1 CHECK (recovery_threshold BETWEEN 1 AND 100),
        ADD COLUMN consecutive_successes integer NOT NULL DEFAULT 0,
        ADD COLUMN status_reason varchar(16) CHECK (status_reason IN ('failing', 'slow'))`);
    // Until now warning only ever meant "failing below alert_threshold".
    await q.query(`UPDATE monitors SET status_reason = 'failing' WHERE status = 'warning'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE monitors
        DROP COLUMN status_reason,
        DROP COLUMN consecutive_successes,
        DROP COLUMN recovery_threshold,
        DROP COLUMN response_time_threshold`);
  }
}
