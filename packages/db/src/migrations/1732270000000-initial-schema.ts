import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1732270000000 implements MigrationInterface {
  name = 'InitialSchema1732270000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`
      CREATE TABLE users (
        id serial PRIMARY KEY,
        email varchar(320) NOT NULL,
        name varchar(200),
        avatar_url text,
        role varchar(16) NOT NULL DEFAULT 'user',
        created_at timestamptz NOT NULL DEFAULT now(),
        last_login timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);

    await q.query(`
      CREATE TABLE api_tokens (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, id)`);

    await q.query(`
      CREATE TABLE monitors (
        id serial PRIMARY KEY,
        owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        url text NOT NULL,
        type varchar(10) NOT NULL DEFAULT 'http',
        method varchar(10) NOT NULL DEFAULT 'GET',
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        body text,
        expected_status integer[] NOT NULL DEFAULT '{}',
        timeout integer NOT NULL,
        check_interval integer NOT NULL,
        retry_count integer NOT NULL DEFAULT 0,
        follow_redirects boolean NOT NULL DEFAULT true,
        verify_ssl boolean NOT NULL DEFAULT true,
        expected_content text,
        excluded_content text,
        json_path text,
        expected_json_value text,
        locations text[] NOT NULL DEFAULT '{}',
        tags text[] NOT NULL DEFAULT '{}',
        status varchar(10) NOT NULL DEFAULT 'pending',
        consecutive_failures integer NOT NULL DEFAULT 0,
        response_time integer,
        last_check timestamptz,
        last_success timestamptz,
        last_failure timestamptz,
        paused_at timestamptz,
        pause_reason text,
        open_incident_id integer,
        config_version integer NOT NULL DEFAULT 1,
        email_enabled boolean NOT NULL DEFAULT true,
        email_recipients text[] NOT NULL DEFAULT '{}',
        slack_enabled boolean NOT NULL DEFAULT false,
        alert_on_recovery boolean NOT NULL DEFAULT true,
        alert_threshold integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One index per list filter, each led by owner_id because every list is scoped to its owner.
    await q.query(`CREATE INDEX monitors_owner_idx ON monitors (owner_id, id)`);
    await q.query(`CREATE INDEX monitors_owner_status_idx ON monitors (owner_id, status, id)`);
    await q.query(`CREATE INDEX monitors_owner_created_idx ON monitors (owner_id, created_at)`);
    await q.query(`CREATE INDEX monitors_owner_updated_idx ON monitors (owner_id, updated_at)`);
    await q.query(`CREATE INDEX monitors_tags_idx ON monitors USING gin (tags)`);
    await q.query(`CREATE INDEX monitors_name_trgm_idx ON monitors USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`CREATE INDEX monitors_url_trgm_idx ON monitors USING gin (lower(url) gin_trgm_ops)`);
    // The reconciler reads every schedulable monitor.
    await q.query(`CREATE INDEX monitors_active_idx ON monitors (id) WHERE status <> 'paused'`);

    await q.query(`
      CREATE TABLE check_results (
        id bigserial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        scheduled_at timestamptz NOT NULL,
        checked_at timestamptz NOT NULL,
        ok boolean NOT NULL,
        status_code smallint,
        response_time integer,
        error text,
        location varchar(64)
      )`);
    // Identifies a check (a redelivered result is a no-op) and serves "results of a monitor by time".
    await q.query(`CREATE UNIQUE INDEX check_results_monitor_time_key ON check_results (monitor_id, scheduled_at)`);
    await q.query(`CREATE INDEX check_results_checked_at_idx ON check_results (checked_at)`);

    // Rollups: counts, sums, min/max and a latency histogram per monitor and bucket. Uptime and
    // statistics read these, never a scan of raw results.
    for (const table of ['check_rollups_5m', 'check_rollups_1h', 'check_rollups_1d']) {
      await q.query(`
        CREATE TABLE ${table} (
          monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
          bucket timestamptz NOT NULL,
          checks integer NOT NULL,
          successes integer NOT NULL,
          rt_count integer NOT NULL,
          rt_sum bigint NOT NULL,
          rt_min integer,
          rt_max integer,
          rt_hist integer[] NOT NULL,
          PRIMARY KEY (monitor_id, bucket)
        )`);
    }
    await q.query(`
      CREATE FUNCTION int_array_add(a integer[], b integer[]) RETURNS integer[]
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i)
        FROM unnest(a, b) WITH ORDINALITY AS t(x, y, i)
      $$`);

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

    // Outbox of status changes: written in the transaction that decides the transition, published
    // to the queue afterwards, so a crash between the two cannot lose an alert.
    await q.query(`
      CREATE TABLE status_events (
        id bigserial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        from_status varchar(10) NOT NULL,
        to_status varchar(10) NOT NULL,
        incident_id integer,
        check_result_id bigint,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      )`);
    await q.query(`CREATE INDEX status_events_unpublished_idx ON status_events (id) WHERE published_at IS NULL`);

    await q.query(`
      CREATE TABLE notifications (
        id serial PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        incident_id integer NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        type varchar(10) NOT NULL,
        status varchar(10) NOT NULL,
        message text NOT NULL,
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        duration integer,
        resolved_manually boolean NOT NULL DEFAULT false,
        notification_method varchar(10) NOT NULL DEFAULT 'email',
        acknowledged boolean NOT NULL DEFAULT false,
        acknowledged_at timestamptz,
        email_sent_at timestamptz,
        error_details jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT notifications_incident_type_key UNIQUE (incident_id, type)
      )`);
    await q.query(`CREATE INDEX notifications_user_idx ON notifications (user_id, id)`);
    await q.query(`CREATE INDEX notifications_user_status_idx ON notifications (user_id, status, id)`);
    await q.query(`CREATE INDEX notifications_user_monitor_idx ON notifications (user_id, monitor_id, id)`);
    await q.query(`CREATE INDEX notifications_user_type_idx ON notifications (user_id, type, id)`);
    await q.query(`CREATE INDEX notifications_user_started_idx ON notifications (user_id, started_at)`);

    await q.query(`
      CREATE TABLE email_deliveries (
        id serial PRIMARY KEY,
        notification_id integer NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
        recipient varchar(320) NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        claimed_at timestamptz,
        sent_at timestamptz,
        CONSTRAINT email_deliveries_notification_recipient_key UNIQUE (notification_id, recipient)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'email_deliveries',
      'notifications',
      'status_events',
      'incidents',
      'check_rollups_1d',
      'check_rollups_1h',
      'check_rollups_5m',
      'check_results',
      'monitors',
      'api_tokens',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
    await q.query(`DROP FUNCTION IF EXISTS int_array_add(integer[], integer[])`);
  }
}
