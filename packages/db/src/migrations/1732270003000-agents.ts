import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents (docs/agent-protocol.md): probes at other places, their assignment to monitors, each location's
 * result of a check, and hourly per-agent counters for the 24 h statistics.
 */
export class Agents1732270003000 implements MigrationInterface {
  name = 'Agents1732270003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        id serial PRIMARY KEY,
        owner_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        location varchar(64) NOT NULL,
        url text NOT NULL,
        -- Kept in clear: the workers sign every request to the agent with it (HMAC needs the key).
        secret varchar(128) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'maintenance', 'unreachable')),
        is_public boolean NOT NULL DEFAULT false,
        version varchar(64),
        last_seen_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX agents_owner_idx ON agents (owner_id, id)`);
    await q.query(`CREATE UNIQUE INDEX agents_owner_name_key ON agents (owner_id, lower(name))`);
    // "accessible" = own + public active: the public half is read through this.
    await q.query(`CREATE INDEX agents_public_active_idx ON agents (id) WHERE is_public AND status = 'active'`);

    await q.query(`
      CREATE TABLE monitor_agents (
        monitor_id integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (monitor_id, agent_id)
      )`);
    await q.query(`CREATE INDEX monitor_agents_agent_idx ON monitor_agents (agent_id, monitor_id)`);

    // One row per location of a check that ran at several places; plain local checks have none.
    // ok: true = up, false = down, NULL = the agent did not answer (an agent error, not a vote).
    // agent_id has no foreign key on purpose: history outlives a deleted agent, and deleting an
    // agent must not scan this (large) table.
    await q.query(`
      CREATE TABLE check_location_results (
        id bigserial PRIMARY KEY,
        check_result_id bigint NOT NULL REFERENCES check_results (id) ON DELETE CASCADE,
        location varchar(64) NOT NULL,
        agent_id integer,
        ok boolean,
        status_code smallint,
        response_time integer,
        error text,
        checked_at timestamptz NOT NULL,
        latency_ms integer
      )`);
    await q.query(`CREATE INDEX check_location_results_result_idx ON check_location_results (check_result_id)`);

    // Per agent and hour: calls, agent errors, failures reported, and the calls' round-trip
    // latency (sum and histogram over LATENCY_BUCKET_BOUNDS_MS). The 24 h statistics read these.
    // No foreign key: a batch counting calls to an agent deleted meanwhile must not fail (and
    // lose its results); deleting an agent deletes its rows.
    await q.query(`
      CREATE TABLE agent_check_rollups_1h (
        agent_id integer NOT NULL,
        bucket timestamptz NOT NULL,
        checks integer NOT NULL,
        errors integer NOT NULL,
        failures integer NOT NULL,
        latency_count integer NOT NULL,
        latency_sum bigint NOT NULL,
        latency_hist integer[] NOT NULL,
        PRIMARY KEY (agent_id, bucket)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['agent_check_rollups_1h', 'check_location_results', 'monitor_agents', 'agents']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
