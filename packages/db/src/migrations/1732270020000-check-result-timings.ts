import type { MigrationInterface, QueryRunner } from 'typeorm';

const PHASES = ['dns_ms', 'connect_ms', 'tls_ms', 'first_byte_ms'] as const;

/**
 * Where a check's time went: DNS, connect, TLS and time to first byte, in milliseconds (the total
 * is response_time). Four nullable smallints: a ninth column makes the null bitmap cost 8 more
 * bytes of tuple header whatever its type, and four smallints fill exactly the 8 bytes the row's
 * alignment leaves after `ok`, so a row grows from 60 to 76 bytes of heap (docs/capacity.md).
 * A phase of 32.767 s or more is stored as 32767. Added to the partitioned parent, the columns
 * reach every daily partition at once, with no rewrite: old rows read them as null.
 */
export class CheckResultTimings1732270020000 implements MigrationInterface {
  name = 'CheckResultTimings1732270020000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results ${PHASES.map((c) => `ADD COLUMN ${c} smallint`).join(', ')}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE check_results ${PHASES.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
  }
}
