import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dns monitor type (docs/monitors.md, "DNS records"): its question and resolver on monitors,
 * and what a dns check learnt on check_results (the response code, the answer's values, the
 * lowest TTL). The monitors columns carry their declared defaults, so existing rows need no
 * rewrite; the check_results ones are null for every other type, added to the partitioned
 * parent, so every daily partition gets them at once without a rewrite.
 */
export class DnsMonitors1796518000000 implements MigrationInterface {
  name = 'DnsMonitors1796518000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE monitors ADD COLUMN dns_record_type varchar(10) NOT NULL DEFAULT 'A', ADD COLUMN dns_resolver text NULL,
         ADD COLUMN dns_protocol varchar(3) NOT NULL DEFAULT 'udp', ADD COLUMN expected_dns_values text[] NOT NULL DEFAULT '{}'`,
    );
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp', 'dns'))`);
    await q.query(`ALTER TABLE check_results ADD COLUMN dns_response_code text, ADD COLUMN dns_answers text[], ADD COLUMN dns_min_ttl integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results DROP COLUMN dns_response_code, DROP COLUMN dns_answers, DROP COLUMN dns_min_ttl`);
    await q.query(`DELETE FROM monitors WHERE type = 'dns'`);
    await q.query(`ALTER TABLE monitors DROP CONSTRAINT monitors_type_check`);
    await q.query(`ALTER TABLE monitors ADD CONSTRAINT monitors_type_check CHECK (type IN ('http', 'tcp'))`);
    await q.query(`ALTER TABLE monitors DROP COLUMN dns_record_type, DROP COLUMN dns_resolver, DROP COLUMN dns_protocol, DROP COLUMN expected_dns_values`);
  }
}
