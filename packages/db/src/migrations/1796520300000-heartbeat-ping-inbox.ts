import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pings a heartbeat's state has not been stepped through yet (docs/heartbeats.md, "How it is
 * built"): one row per ping, written by a trigger in the ping's own INSERT (so a ping stays one
 * statement) and deleted by the check-worker in the transaction that steps it. A row is there
 * until its step commits: a worker that dies mid-batch leaves every row for the next pass, and
 * a ping that commits after a later one of its monitor was stepped is still found, which the
 * per-monitor cursor this replaces could not do without making the ping wait on the monitor's row
 * lock. It holds what stepping reads (kind, exit status, time), so a pass never reads
 * heartbeat_pings. No foreign key: the trigger's insert takes no lock on the monitor, and rows of
 * a deleted monitor are dropped by the next pass that meets them.
 */
export class HeartbeatPingInbox1796520300000 implements MigrationInterface {
  name = 'HeartbeatPingInbox1796520300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE heartbeat_ping_inbox (
      ping_id bigint PRIMARY KEY,
      monitor_id integer NOT NULL,
      kind varchar(8) NOT NULL,
      exit_status smallint NULL,
      received_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX heartbeat_ping_inbox_monitor ON heartbeat_ping_inbox (monitor_id)`);
    await q.query(`CREATE FUNCTION heartbeat_ping_to_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO heartbeat_ping_inbox (ping_id, monitor_id, kind, exit_status, received_at)
          VALUES (NEW.id, NEW.monitor_id, NEW.kind, NEW.exit_status, NEW.received_at);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER heartbeat_pings_to_inbox AFTER INSERT ON heartbeat_pings FOR EACH ROW EXECUTE FUNCTION heartbeat_ping_to_inbox()`);
    // The pings the old cursor had not reached yet are waiting: they go in, then the cursor goes.
    await q.query(`INSERT INTO heartbeat_ping_inbox (ping_id, monitor_id, kind, exit_status, received_at)
      SELECT p.id, p.monitor_id, p.kind, p.exit_status, p.received_at FROM heartbeat_pings p JOIN monitors m ON m.id = p.monitor_id
       WHERE p.id > m.heartbeat_ping_cursor`);
    await q.query(`ALTER TABLE monitors DROP COLUMN heartbeat_ping_cursor`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN heartbeat_ping_cursor bigint NOT NULL DEFAULT 0`);
    // Every ping before the first still waiting has been stepped.
    await q.query(`UPDATE monitors m SET heartbeat_ping_cursor = coalesce(
      (SELECT min(i.ping_id) - 1 FROM heartbeat_ping_inbox i WHERE i.monitor_id = m.id),
      (SELECT max(p.id) FROM heartbeat_pings p WHERE p.monitor_id = m.id), 0) WHERE m.type = 'heartbeat'`);
    await q.query(`DROP TRIGGER heartbeat_pings_to_inbox ON heartbeat_pings`);
    await q.query(`DROP FUNCTION heartbeat_ping_to_inbox()`);
    await q.query(`DROP TABLE heartbeat_ping_inbox`);
  }
}
