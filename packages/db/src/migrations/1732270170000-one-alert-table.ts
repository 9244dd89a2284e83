import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns `incidents` had (1732270000000), in their order: the view keeps them, then `kind`. */
const INCIDENT_COLUMNS = 'id, monitor_id, started_at, resolved_at, duration, status_code, response_time, error';
/** The columns `alert_episodes` had (1732270135000), in their order. */
const EPISODE_COLUMNS = 'id, monitor_id, kind, started_at, resolved_at, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days';

/**
 * One alert model in the schema (docs/architecture.md, "Alerts"): every alert, whatever its kind,
 * is a row of `alerts`, and a notification names its alert by `alert_id`.
 * - Incidents keep their ids, which the API shows. Episodes get new ids after every id the
 *   incidents' sequence handed out, in their order; the notifications, status events and
 *   monitors that named them are renumbered with them. A status event naming an episode that no
 *   longer exists (nothing can: episodes went with their monitor, and so did its events) would
 *   lose that name: it named nothing.
 * - `incidents` and `alert_episodes` stay, as views of `alerts` by kind that Postgres updates
 *   itself (one table, a WHERE on kind, WITH CHECK OPTION), so the API's statistics, dashboard and
 *   status pages read what they read before; an incident inserted through its view is a
 *   `downtime` by the view's default.
 * - `notifications.incident_id` and `episode_id` stay too, as what `alert_id` is, by its alert's
 *   kind (a trigger keeps them in step; writing either one sets `alert_id`). Only `alert_id` is a
 *   reference, unique with `type`: at most one notification of each type per alert.
 * Status-changed jobs still queued when this runs name episodes by their old ids: stop the
 * check-workers and let the notifiers drain the queue before migrating (docs/operations.md).
 */
export class OneAlertTable1732270170000 implements MigrationInterface {
  name = 'OneAlertTable1732270170000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE alerts (
        id serial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('downtime', 'slow', 'certificate')),
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        duration integer,
        status_code integer,
        response_time integer,
        error text,
        response_time_threshold integer,
        certificate_expires_at timestamptz,
        certificate_expiry_days smallint
      )`);
    await q.query(`CREATE INDEX alerts_monitor_idx ON alerts (monitor_id, kind, started_at)`);

    // The last id the incidents were given (deleted ones included), and the episodes' ids after it.
    await q.query(`ALTER TABLE alert_episodes ADD COLUMN new_id integer`);
    await q.query(`
      UPDATE alert_episodes e SET new_id = (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM incidents_id_seq) + r.n
        FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM alert_episodes) r
       WHERE r.id = e.id`);
    await q.query(`INSERT INTO alerts (${INCIDENT_COLUMNS}, kind) SELECT ${INCIDENT_COLUMNS}, 'downtime' FROM incidents`);
    await q.query(`
      INSERT INTO alerts (${EPISODE_COLUMNS}, duration)
      SELECT new_id, monitor_id, kind, started_at, resolved_at, response_time, response_time_threshold, certificate_expires_at, certificate_expiry_days,
             CASE WHEN resolved_at IS NOT NULL THEN GREATEST(0, round(extract(epoch FROM resolved_at - started_at)))::int END
        FROM alert_episodes`);
    await q.query(`
      SELECT setval('alerts_id_seq', GREATEST(v.last, 1), v.last > 0)
        FROM (SELECT GREATEST((SELECT max(new_id) FROM alert_episodes),
                              (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM incidents_id_seq)) AS last) v`);

    await q.query(`
      ALTER TABLE notifications
        DROP CONSTRAINT notifications_incident_id_fkey,
        DROP CONSTRAINT notifications_episode_id_fkey,
        DROP CONSTRAINT notifications_incident_type_key,
        DROP CONSTRAINT notifications_episode_type_key,
        DROP CONSTRAINT notifications_subject_check,
        ADD COLUMN alert_id integer`);
    await q.query(`UPDATE notifications n SET episode_id = e.new_id FROM alert_episodes e WHERE e.id = n.episode_id`);
    await q.query(`UPDATE notifications SET alert_id = COALESCE(incident_id, episode_id)`);
    await q.query(`
      ALTER TABLE notifications
        ALTER COLUMN alert_id SET NOT NULL,
        ADD CONSTRAINT notifications_alert_id_fkey FOREIGN KEY (alert_id) REFERENCES alerts (id) ON DELETE CASCADE,
        ADD CONSTRAINT notifications_alert_type_key UNIQUE (alert_id, type)`);
    await q.query(`
      UPDATE status_events s
         SET episode_ids = ARRAY(SELECT e.new_id FROM unnest(s.episode_ids) WITH ORDINALITY AS x(id, n) JOIN alert_episodes e ON e.id = x.id ORDER BY x.n)
       WHERE s.episode_ids <> '{}'`);
    await q.query(`
      UPDATE monitors m
         SET open_slow_episode_id = (SELECT e.new_id FROM alert_episodes e WHERE e.id = m.open_slow_episode_id),
             open_certificate_episode_id = (SELECT e.new_id FROM alert_episodes e WHERE e.id = m.open_certificate_episode_id)
       WHERE open_slow_episode_id IS NOT NULL OR open_certificate_episode_id IS NOT NULL`);

    await q.query(`DROP TABLE alert_episodes`);
    await q.query(`DROP TABLE incidents`);
    await q.query(`CREATE VIEW incidents AS SELECT ${INCIDENT_COLUMNS}, kind FROM alerts WHERE kind = 'downtime' WITH CASCADED CHECK OPTION`);
    await q.query(`ALTER VIEW incidents ALTER COLUMN kind SET DEFAULT 'downtime'`);
    await q.query(`CREATE VIEW alert_episodes AS SELECT ${EPISODE_COLUMNS} FROM alerts WHERE kind IN ('slow', 'certificate') WITH CASCADED CHECK OPTION`);

    // Reads the alert's kind: a notification's type does not say it for every future kind.
    await q.query(`
      CREATE FUNCTION notifications_alert_columns() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          NEW.alert_id := COALESCE(NEW.alert_id, NEW.incident_id, NEW.episode_id);
        ELSIF NEW.alert_id IS NOT DISTINCT FROM OLD.alert_id THEN
          NEW.alert_id := COALESCE(
            CASE WHEN NEW.incident_id IS DISTINCT FROM OLD.incident_id THEN NEW.incident_id END,
            CASE WHEN NEW.episode_id IS DISTINCT FROM OLD.episode_id THEN NEW.episode_id END,
            NEW.alert_id);
        END IF;
        IF (SELECT kind FROM alerts WHERE id = NEW.alert_id) = 'downtime' THEN
          NEW.incident_id := NEW.alert_id;
          NEW.episode_id := NULL;
        ELSE
          NEW.incident_id := NULL;
          NEW.episode_id := NEW.alert_id;
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER notifications_alert_columns BEFORE INSERT OR UPDATE OF alert_id, incident_id, episode_id ON notifications
        FOR EACH ROW EXECUTE FUNCTION notifications_alert_columns()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER notifications_alert_columns ON notifications`);
    await q.query(`DROP FUNCTION notifications_alert_columns()`);
    await q.query(`DROP VIEW incidents`);
    await q.query(`DROP VIEW alert_episodes`);
    // Both tables keep the alerts' ids (unique across kinds), and number new rows after all of them.
    await q.query(`
      CREATE TABLE incidents (
        id serial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        duration integer,
        status_code integer,
        response_time integer,
        error text
      )`);
    await q.query(`CREATE INDEX incidents_monitor_idx ON incidents (monitor_id, started_at)`);
    await q.query(`
      CREATE TABLE alert_episodes (
        id serial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        kind varchar(16) NOT NULL CHECK (kind IN ('slow', 'certificate')),
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        response_time integer,
        response_time_threshold integer,
        certificate_expires_at timestamptz,
        certificate_expiry_days smallint
      )`);
    await q.query(`CREATE INDEX alert_episodes_monitor_idx ON alert_episodes (monitor_id, started_at)`);
    await q.query(`INSERT INTO incidents (${INCIDENT_COLUMNS}) SELECT ${INCIDENT_COLUMNS} FROM alerts WHERE kind = 'downtime'`);
    await q.query(`INSERT INTO alert_episodes (${EPISODE_COLUMNS}) SELECT ${EPISODE_COLUMNS} FROM alerts WHERE kind IN ('slow', 'certificate')`);
    for (const seq of ['incidents_id_seq', 'alert_episodes_id_seq']) {
      await q.query(`SELECT setval('${seq}', last_value, is_called) FROM alerts_id_seq`);
    }
    await q.query(`
      ALTER TABLE notifications
        DROP CONSTRAINT notifications_alert_type_key,
        DROP CONSTRAINT notifications_alert_id_fkey,
        DROP COLUMN alert_id,
        ADD CONSTRAINT notifications_incident_id_fkey FOREIGN KEY (incident_id) REFERENCES incidents (id) ON DELETE CASCADE,
        ADD CONSTRAINT notifications_episode_id_fkey FOREIGN KEY (episode_id) REFERENCES alert_episodes (id) ON DELETE CASCADE,
        ADD CONSTRAINT notifications_incident_type_key UNIQUE (incident_id, type),
        ADD CONSTRAINT notifications_episode_type_key UNIQUE (episode_id, type),
        ADD CONSTRAINT notifications_subject_check CHECK ((incident_id IS NULL) <> (episode_id IS NULL))`);
    await q.query(`DROP TABLE alerts`);
  }
}
