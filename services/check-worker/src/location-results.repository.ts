import { storedCheckError, type EntityManager } from '@uptime/db';
import { agentRollupRows, latestSightings, type AgentRollupRow, type Sighting } from './agent-rollup-rows';
import type { LocationOutcome } from './location-vote';

/** A recorded check that ran at several places, with the id of its check_results row. */
export interface RecordedLocations {
  checkResultId: string;
  locations: readonly LocationOutcome[];
}

/** One row per location of each multi-location check, in one statement. */
export async function insertLocationResults(em: EntityManager, checks: readonly RecordedLocations[]): Promise<void> {
  const rows = checks.flatMap((c) => c.locations.map((l) => ({ checkResultId: c.checkResultId, ...l })));
  if (rows.length === 0) return;
  await em.query(
    `INSERT INTO check_location_results (check_result_id, location, agent_id, ok, status_code, response_time, error, checked_at, latency_ms)
     SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::int[], $4::bool[], $5::smallint[], $6::int[], $7::text[], $8::timestamptz[], $9::int[])`,
    [
      rows.map((r) => r.checkResultId),
      rows.map((r) => r.location.slice(0, 64)),
      rows.map((r) => r.agentId),
      rows.map((r) => (r.status === 'error' ? null : r.status === 'up')),
      rows.map((r) => r.statusCode),
      rows.map((r) => r.responseTime),
      rows.map((r) => storedCheckError(r.error)),
      rows.map((r) => r.checkedAt),
      rows.map((r) => r.latencyMs),
    ],
  );
}

async function upsertAgentRollups(em: EntityManager, rows: readonly AgentRollupRow[]): Promise<void> {
  if (rows.length === 0) return;
  // Only agents that still exist: a batch must not write counters of an agent deleted meanwhile.
  await em.query(
    `INSERT INTO agent_check_rollups_1h AS t (agent_id, bucket, checks, errors, failures, latency_count, latency_sum, latency_hist)
     SELECT v.agent_id, v.bucket, v.checks, v.errors, v.failures, v.latency_count, v.latency_sum, v.hist::int[]
       FROM unnest($1::int[], $2::timestamptz[], $3::int[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::text[])
            WITH ORDINALITY AS v(agent_id, bucket, checks, errors, failures, latency_count, latency_sum, hist, n)
      WHERE EXISTS (SELECT 1 FROM agents a WHERE a.id = v.agent_id)
      ORDER BY v.n
     ON CONFLICT (agent_id, bucket) DO UPDATE SET
       checks = t.checks + EXCLUDED.checks,
       errors = t.errors + EXCLUDED.errors,
       failures = t.failures + EXCLUDED.failures,
       latency_count = t.latency_count + EXCLUDED.latency_count,
       latency_sum = t.latency_sum + EXCLUDED.latency_sum,
       latency_hist = int_array_add(t.latency_hist, EXCLUDED.latency_hist)`,
    [
      rows.map((r) => r.agentId),
      rows.map((r) => r.bucket),
      rows.map((r) => r.checks),
      rows.map((r) => r.errors),
      rows.map((r) => r.failures),
      rows.map((r) => r.latencyCount),
      rows.map((r) => r.latencySum),
      rows.map((r) => `{${r.hist.join(',')}}`),
    ],
  );
}

/**
 * Agent status from what the checks saw: an agent that answered gets last_seen_at (and, when it
 * was unreachable, is active again); an active agent that did not answer becomes unreachable,
 * unless another worker has seen it answer since. inactive/maintenance are the owner's and never
 * change here. Rows are written only when something changes (last_seen_at at most every few
 * seconds), and locked in id order with FOR NO KEY UPDATE, which does not block the foreign-key
 * checks of assignments.
 */
async function updateAgentStatus(em: EntityManager, sightings: readonly Sighting[]): Promise<void> {
  if (sightings.length === 0) return;
  await em.query(
    `WITH v AS (
       SELECT * FROM unnest($1::int[], $2::bool[], $3::timestamptz[], $4::varchar[]) AS v(id, answered, at, version)
     ), changing AS (
       SELECT a.id FROM agents a JOIN v ON v.id = a.id
        WHERE (v.answered AND (a.status = 'unreachable' OR a.last_seen_at IS NULL OR a.last_seen_at < v.at - interval '5 seconds'
                               OR (v.version IS NOT NULL AND a.version IS DISTINCT FROM v.version)))
           OR (NOT v.answered AND a.status = 'active' AND (a.last_seen_at IS NULL OR a.last_seen_at < v.at))
        ORDER BY a.id
        FOR NO KEY UPDATE OF a
     )
     UPDATE agents a SET
       status = CASE WHEN v.answered AND a.status = 'unreachable' THEN 'active'
                     WHEN NOT v.answered AND a.status = 'active' THEN 'unreachable'
                     ELSE a.status END,
       last_seen_at = CASE WHEN v.answered THEN GREATEST(a.last_seen_at, v.at) ELSE a.last_seen_at END,
       version = CASE WHEN v.answered THEN COALESCE(v.version, a.version) ELSE a.version END
      FROM v, changing
     WHERE a.id = v.id AND changing.id = a.id`,
    [
      sightings.map((s) => s.agentId),
      sightings.map((s) => s.answered),
      sightings.map((s) => s.at),
      sightings.map((s) => s.version?.slice(0, 64) ?? null),
    ],
  );
}

/**
 * What the batch's agent calls say about the agents: counters from the recorded checks (a
 * redelivered check is not counted twice), status from every call made.
 */
export async function recordAgentActivity(
  em: EntityManager,
  recorded: readonly LocationOutcome[],
  all: readonly LocationOutcome[],
): Promise<void> {
  await upsertAgentRollups(em, agentRollupRows(recorded));
  await updateAgentStatus(em, latestSightings(all));
}
