import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Heartbeat monitors (docs/heartbeats.md): their schedule (a period or a cron in a zone, and a
 * grace), the secret token of their ping URL (unique: it names the monitor), when the next ping
 * is due, when an unfinished start was reported and the last ping the check-worker stepped;
 * and the pings received, with what a POST sent (at most 10 KiB of it) and, for a finish, how
 * long after its start it came. A heartbeat has no url: its row holds an empty one.
 */
export class Heartbeats1796518200000 implements MigrationInterface {
  name = 'Heartbeats1796518200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp', 'dns', 'ping', 'heartbeat'))`);
    await q.query(`ALTER TABLE monitors
      ADD COLUMN heartbeat_period integer NULL,
      ADD COLUMN heartbeat_cron varchar(120) NULL,
      ADD COLUMN heartbeat_timezone varchar(64) NULL,
      ADD COLUMN heartbeat_grace integer NULL,
      ADD COLUMN heartbeat_token varchar(64) NULL,
      ADD COLUMN heartbeat_due_at timestamptz NULL,
      ADD COLUMN heartbeat_started_at timestamptz NULL,
      ADD COLUMN heartbeat_ping_cursor bigint NOT NULL DEFAULT 0`);
    await q.query(`CREATE UNIQUE INDEX monitors_heartbeat_token ON monitors (heartbeat_token) WHERE heartbeat_token IS NOT NULL`);
    await q.query(`CREATE TABLE heartbeat_pings (
      id bigserial PRIMARY KEY,
      monitor_id integer NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
      received_at timestamptz NOT NULL DEFAULT now(),
      kind varchar(8) NOT NULL CHECK (kind IN ('success', 'start', 'fail', 'exit')),
      exit_status smallint NULL,
      source_ip varchar(64) NULL,
      user_agent varchar(512) NULL,
      body text NULL,
      body_size integer NOT NULL DEFAULT 0,
      body_truncated boolean NOT NULL DEFAULT false,
      duration_ms integer NULL
    )`);
    await q.query(`CREATE INDEX heartbeat_pings_monitor ON heartbeat_pings (monitor_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE heartbeat_pings`);
    await q.query(`DROP INDEX monitors_heartbeat_token`);
    await q.query(`ALTER TABLE monitors
      DROP COLUMN heartbeat_period, DROP COLUMN heartbeat_cron, DROP COLUMN heartbeat_timezone, DROP COLUMN heartbeat_grace,
      DROP COLUMN heartbeat_token, DROP COLUMN heartbeat_due_at, DROP COLUMN heartbeat_started_at, DROP COLUMN heartbeat_ping_cursor`);
    await q.query(`DELETE FROM monitors WHERE type = 'heartbeat'`);
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp', 'dns', 'ping'))`);
  }
}
