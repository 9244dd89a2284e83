import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email subscribers of a status page and what they are told (docs/status-pages.md, "Subscribers").
 *
 * - `status_page_subscribers`: one row per (page, address). `pending` until the single-use link of
 *   the confirmation email is used (its SHA-256 kept, valid 24 h), then `confirmed`; one who
 *   leaves is `unsubscribed` and is sent nothing more. `unsubscribe_token` is in every email.
 * - `status_page_events`: what subscribers are told about, one row per event: an incident
 *   published, updated or resolved (written with the change it reports), or an occurrence of a
 *   maintenance window over the page's monitors that started (once per page and occurrence).
 * - Their emails are rows of `notification_deliveries`, the alerts' delivery records, so they are
 *   claimed, leased and retried as alerts are: such a row names its event and subscriber in place
 *   of a notification, once per (event, subscriber).
 */
export class StatusPageSubscribers1796518400000 implements MigrationInterface {
  name = 'StatusPageSubscribers1796518400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status_page_subscribers (
        id serial PRIMARY KEY,
        status_page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        email varchar(320) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirm_token_hash bytea,
        confirm_expires_at timestamptz,
        unsubscribe_token varchar(64) NOT NULL UNIQUE,
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (status_page_id, email),
        CHECK ((status = 'confirmed') = (confirmed_at IS NOT NULL))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX status_page_subscribers_confirm_idx ON status_page_subscribers (confirm_token_hash) WHERE confirm_token_hash IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE status_page_events (
        id serial PRIMARY KEY,
        status_page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        kind varchar(32) NOT NULL CHECK (kind IN ('incident_published', 'incident_updated', 'incident_resolved', 'maintenance_started')),
        incident_id integer REFERENCES status_page_incidents (id) ON DELETE CASCADE,
        update_id integer REFERENCES status_page_incident_updates (id) ON DELETE CASCADE,
        maintenance_window_id integer REFERENCES maintenance_windows (id) ON DELETE CASCADE,
        occurrence_starts_at timestamptz,
        occurrence_ends_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        fanned_out_at timestamptz,
        CHECK (CASE WHEN kind = 'maintenance_started'
                    THEN maintenance_window_id IS NOT NULL AND occurrence_starts_at IS NOT NULL AND occurrence_ends_at IS NOT NULL
                    ELSE incident_id IS NOT NULL AND update_id IS NOT NULL END),
        UNIQUE (status_page_id, maintenance_window_id, occurrence_starts_at)
      )`);
    // The sweep's look-up of events a lost job left without their deliveries.
    await q.query(`CREATE INDEX status_page_events_unfanned_idx ON status_page_events (created_at) WHERE fanned_out_at IS NULL`);

    await q.query(`
      ALTER TABLE notification_deliveries
        ALTER COLUMN notification_id DROP NOT NULL,
        ADD COLUMN page_event_id integer REFERENCES status_page_events (id) ON DELETE CASCADE,
        ADD COLUMN subscriber_id integer REFERENCES status_page_subscribers (id) ON DELETE CASCADE,
        ADD CONSTRAINT notification_deliveries_subject_check
          CHECK ((notification_id IS NULL) = (page_event_id IS NOT NULL) AND (page_event_id IS NULL) = (subscriber_id IS NULL))`);
    await q.query(
      `CREATE UNIQUE INDEX notification_deliveries_page_event_key ON notification_deliveries (page_event_id, subscriber_id) WHERE page_event_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX notification_deliveries_subscriber_idx ON notification_deliveries (subscriber_id) WHERE subscriber_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM notification_deliveries WHERE notification_id IS NULL`);
    await q.query(`
      ALTER TABLE notification_deliveries
        DROP CONSTRAINT notification_deliveries_subject_check,
        DROP COLUMN subscriber_id,
        DROP COLUMN page_event_id,
        ALTER COLUMN notification_id SET NOT NULL`);
    await q.query(`DROP TABLE status_page_events`);
    await q.query(`DROP TABLE status_page_subscribers`);
  }
}
