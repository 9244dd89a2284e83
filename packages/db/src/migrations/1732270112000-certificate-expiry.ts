import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The notAfter of an https monitor's leaf certificate, as its last check saw it (docs/alert-rules.md). */
export class CertificateExpiry1732270112000 implements MigrationInterface {
  name = 'CertificateExpiry1732270112000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors ADD COLUMN certificate_expires_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN certificate_expires_at`);
  }
}
