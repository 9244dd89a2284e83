import { HOUR_MS, histogramQuantile, LATENCY_BUCKET_COUNT, type AgentStatus, type DataSource } from '@uptime/db';
import type { AgentCaller } from './agent-access';

export interface AgentStatsRow {
  agent_id: number;
  name: string;
  location: string;
  status: AgentStatus;
  is_public: boolean;
  last_seen_at: string | null;
  /** Checks run through the agent (recorded ones). */
  checks: number;
  /** Calls the agent did not answer (agent errors). */
  errors: number;
  /** Checks the agent answered with "down". */
  failures: number;
  /** errors / checks × 100, two decimals; null with no checks. */
  error_rate: number | null;
  /** Round trip of the calls that were answered, ms. */
  avg_latency_ms: number | null;
  p95_latency_ms: number | null;
}

export interface AgentStats {
  period: '24h';
  from: string;
  to: string;
  totals: {
    agents: number;
    active: number;
    inactive: number;
    maintenance: number;
    unreachable: number;
    checks: number;
    errors: number;
    failures: number;
  };
  agents: AgentStatsRow[];
}

interface AgentStatsSqlRow {
  id: number;
  name: string;
  location: string;
  status: AgentStatus;
  is_public: boolean;
  last_seen_at: Date | null;
  checks: number;
  errors: number;
  failures: number;
  latency_count: number;
  latency_sum: string;
  latency_hist: number[] | null;
}

/** Each agent in scope with its hourly rollups since `from` summed; latency histograms merged element-wise. */
function agentStatsRows(ds: DataSource, caller: AgentCaller, from: Date): Promise<AgentStatsSqlRow[]> {
  const scope = caller.role === 'admin' ? 'TRUE' : `(a.organization_id = $2 OR (a.is_public AND a.status = 'active'))`;
  const params: unknown[] = caller.role === 'admin' ? [from] : [from, caller.organizationId];
  return ds.query(
    `SELECT a.id, a.name, a.location, a.status, a.is_public, a.last_seen_at,
            COALESCE(sum(r.checks), 0)::int AS checks, COALESCE(sum(r.errors), 0)::int AS errors,
            COALESCE(sum(r.failures), 0)::int AS failures, COALESCE(sum(r.latency_count), 0)::int AS latency_count,
            COALESCE(sum(r.latency_sum), 0)::text AS latency_sum,
            (SELECT array_agg(s ORDER BY i) FROM (
               SELECT i, sum(x)::int AS s FROM agent_check_rollups_1h h, unnest(h.latency_hist) WITH ORDINALITY AS u(x, i)
                WHERE h.agent_id = a.id AND h.bucket >= $1 GROUP BY i) cells) AS latency_hist
       FROM agents a
       LEFT JOIN agent_check_rollups_1h r ON r.agent_id = a.id AND r.bucket >= $1
      WHERE ${scope}
      GROUP BY a.id
      ORDER BY a.id`,
    params,
  );
}

function toAgentStatsRow(r: AgentStatsSqlRow): AgentStatsRow {
  const latencySum = Number(r.latency_sum);
  return {
    agent_id: r.id,
    name: r.name,
    location: r.location,
    status: r.status,
    is_public: r.is_public,
    last_seen_at: r.last_seen_at ? r.last_seen_at.toISOString() : null,
    checks: r.checks,
    errors: r.errors,
    failures: r.failures,
    error_rate: r.checks > 0 ? Math.round((r.errors / r.checks) * 10_000) / 100 : null,
    avg_latency_ms: r.latency_count > 0 ? Math.round(latencySum / r.latency_count) : null,
    p95_latency_ms: histogramQuantile(r.latency_hist ?? new Array<number>(LATENCY_BUCKET_COUNT).fill(0), 0.95),
  };
}

/**
 * Per-agent statistics over the last 24 hours (the current hour and the 23 before it), read from
 * the hourly rollups the check-workers keep; never a scan of results. Scope: the agents the
 * caller can use (own + public active), or every agent for an admin.
 */
export async function agentStats(ds: DataSource, caller: AgentCaller, now = new Date()): Promise<AgentStats> {
  const from = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - 23 * HOUR_MS);
  const agents = (await agentStatsRows(ds, caller, from)).map(toAgentStatsRow);
  const count = (s: AgentStatus): number => agents.filter((a) => a.status === s).length;
  const sum = (f: 'checks' | 'errors' | 'failures'): number => agents.reduce((t, a) => t + a[f], 0);
  return {
    period: '24h',
    from: from.toISOString(),
    to: now.toISOString(),
    totals: {
      agents: agents.length,
      active: count('active'),
      inactive: count('inactive'),
      maintenance: count('maintenance'),
      unreachable: count('unreachable'),
      checks: sum('checks'),
      errors: sum('errors'),
      failures: sum('failures'),
    },
    agents,
  };
}
