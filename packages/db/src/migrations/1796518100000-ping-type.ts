import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ping monitor type (docs/monitors.md, "ICMP ping"): how many echo requests a check sends,
 * the type in the values a row may hold, and a ping check's figures on its result (null for
 * other types' results): the percent of requests unanswered and the round trips in milliseconds,
 * kept with their fractions (a loopback answers in 0.05 ms; the response time holds the average
 * rounded). The columns are added to the partitioned parent, which gives them to every partition.
 */
export class PingType1796518100000 implements MigrationInterface {
  name = 'PingType1796518100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN ping_count smallint NOT NULL DEFAULT 3`);
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp', 'dns', 'ping'))`);
    await q.query(`ALTER TABLE check_results ADD COLUMN packet_loss real NULL, ADD COLUMN rtt_min_ms real NULL, ADD COLUMN rtt_avg_ms real NULL, ADD COLUMN rtt_max_ms real NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results DROP COLUMN packet_loss, DROP COLUMN rtt_min_ms, DROP COLUMN rtt_avg_ms, DROP COLUMN rtt_max_ms`);
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp', 'dns'))`);
    await q.query(`ALTER TABLE monitors DROP COLUMN ping_count`);
  }
}
