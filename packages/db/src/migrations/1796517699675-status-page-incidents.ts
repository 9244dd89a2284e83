import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Incidents an operator writes on a status page (docs/status-pages.md, "Incidents"): a title, an
 * impact, a status moved by updates, the page's monitors it affects, and its timeline of updates.
 * Apart from `incidents` (a monitor's downtime, written by the check pipeline): these are words
 * for the public. Deleting the page deletes its incidents; deleting a monitor takes it off the
 * incidents that named it.
 */
export class StatusPageIncidents1796517699675 implements MigrationInterface {
  name = 'StatusPageIncidents1796517699675';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status_page_incidents (
        id serial PRIMARY KEY,
        status_page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        title varchar(200) NOT NULL,
        impact varchar(16) NOT NULL CHECK (impact IN ('none', 'minor', 'major', 'critical')),
        status varchar(16) NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        started_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'resolved') = (resolved_at IS NOT NULL))
      )`);
    // The page's incidents, newest first: the owner's list and the public page's 90 days.
    await q.query(`CREATE INDEX status_page_incidents_page_idx ON status_page_incidents (status_page_id, started_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE status_page_incident_monitors (
        incident_id integer NOT NULL REFERENCES status_page_incidents (id) ON DELETE CASCADE,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        position smallint NOT NULL,
        PRIMARY KEY (incident_id, monitor_id)
      )`);
    await q.query(`CREATE INDEX status_page_incident_monitors_monitor_idx ON status_page_incident_monitors (monitor_id)`);

    await q.query(`
      CREATE TABLE status_page_incident_updates (
        id serial PRIMARY KEY,
        incident_id integer NOT NULL REFERENCES status_page_incidents (id) ON DELETE CASCADE,
        status varchar(16) NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        message varchar(10000) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX status_page_incident_updates_incident_idx ON status_page_incident_updates (incident_id, created_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['status_page_incident_updates', 'status_page_incident_monitors', 'status_page_incidents']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
