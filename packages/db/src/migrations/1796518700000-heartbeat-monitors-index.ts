import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The heartbeat monitors, indexed apart: the uptime of a list of monitors picks out its
 * heartbeats (services/api/src/monitor-stats/heartbeat-uptime.repository.ts) on every dashboard
 * and list read, and without this the planner scans every monitor of a large organization to
 * find none (bench/hot-queries/hot-queries.test.ts).
 */
export class HeartbeatMonitorsIndex1796518700000 implements MigrationInterface {
  name = 'HeartbeatMonitorsIndex1796518700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX monitors_heartbeat_idx ON monitors (id) WHERE type = 'heartbeat'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX monitors_heartbeat_idx`);
  }
}
