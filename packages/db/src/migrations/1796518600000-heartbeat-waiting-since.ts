import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a resumed heartbeat began waiting for its first ping again (docs/heartbeats.md): a new
 * schedule given while it is pending counts its first wait from then, as it counts a new one's
 * from its creation (null: since creation). Pending heartbeats with a period get the time their
 * due time was counted from; one with a cron keeps null, its creation.
 *
 * And the time of the last result a heartbeat's pings or deadline gave: the next is recorded at
 * least 1 ms after it, so two pings of one millisecond are two results (check results are unique
 * by monitor and planned time, in milliseconds).
 */
export class HeartbeatWaitingSince1796518600000 implements MigrationInterface {
  name = 'HeartbeatWaitingSince1796518600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN heartbeat_waiting_since timestamptz NULL, ADD COLUMN heartbeat_last_verdict_at timestamptz NULL`);
    await q.query(`UPDATE monitors SET heartbeat_waiting_since = heartbeat_due_at - make_interval(secs => heartbeat_period)
      WHERE type = 'heartbeat' AND status = 'pending' AND heartbeat_period IS NOT NULL AND heartbeat_due_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN heartbeat_waiting_since, DROP COLUMN heartbeat_last_verdict_at`);
  }
}
