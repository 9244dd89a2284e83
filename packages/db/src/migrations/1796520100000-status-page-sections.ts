import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Named sections of a status page, in order (docs/status-pages.md, "Sections"). A section holds
 * some of the page's own monitors, in an order of its own; a monitor is in at most one section
 * of a page (the primary key of status_page_section_monitors). Membership hangs off the page's
 * monitor row, so taking a monitor off the page (or deleting it) takes it out of its section.
 */
export class StatusPageSections1796520100000 implements MigrationInterface {
  name = 'StatusPageSections1796520100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status_page_sections (
        id serial PRIMARY KEY,
        status_page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL CHECK (btrim(name) <> ''),
        position smallint NOT NULL,
        CONSTRAINT status_page_sections_position_key UNIQUE (status_page_id, position),
        -- The target of the memberships' foreign key: a section of the same page.
        CONSTRAINT status_page_sections_page_key UNIQUE (id, status_page_id)
      )`);
    await q.query(`
      CREATE TABLE status_page_section_monitors (
        status_page_id integer NOT NULL,
        monitor_id integer NOT NULL,
        section_id integer NOT NULL,
        position smallint NOT NULL,
        PRIMARY KEY (status_page_id, monitor_id),
        FOREIGN KEY (status_page_id, monitor_id) REFERENCES status_page_monitors (status_page_id, monitor_id) ON DELETE CASCADE,
        FOREIGN KEY (section_id, status_page_id) REFERENCES status_page_sections (id, status_page_id) ON DELETE CASCADE
      )`);
    // Replacing a page's sections deletes them; the cascade finds their members by this.
    await q.query(`CREATE INDEX status_page_section_monitors_section_idx ON status_page_section_monitors (section_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS status_page_section_monitors`);
    await q.query(`DROP TABLE IF EXISTS status_page_sections`);
  }
}
