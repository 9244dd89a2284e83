import { HOUR_MS, LATENCY_BUCKET_COUNT, latencyBucketIndex } from '@uptime/db';
import type { LocationOutcome } from './location-vote';

// What a batch's agent calls add to agent_check_rollups_1h and agents (location-results.repository.ts writes it).

export interface AgentRollupRow {
  agentId: number;
  bucket: Date;
  checks: number;
  errors: number;
  failures: number;
  latencyCount: number;
  latencySum: number;
  hist: number[];
}

/** Per (agent, hour): calls, agent errors, failures reported and the calls' latency. */
export function agentRollupRows(locations: readonly LocationOutcome[]): AgentRollupRow[] {
  const rows = new Map<string, AgentRollupRow>();
  for (const l of locations) {
    if (l.agentId === null) continue;
    const bucket = Math.floor(l.observedAt.getTime() / HOUR_MS) * HOUR_MS;
    const key = `${l.agentId}:${bucket}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        agentId: l.agentId,
        bucket: new Date(bucket),
        checks: 0,
        errors: 0,
        failures: 0,
        latencyCount: 0,
        latencySum: 0,
        hist: new Array<number>(LATENCY_BUCKET_COUNT).fill(0),
      };
      rows.set(key, row);
    }
    row.checks += 1;
    if (l.status === 'error') row.errors += 1;
    if (l.status === 'down') row.failures += 1;
    if (l.latencyMs !== null) {
      row.latencyCount += 1;
      row.latencySum += l.latencyMs;
      row.hist[latencyBucketIndex(l.latencyMs)]! += 1;
    }
  }
  // Sorted, so concurrent batches lock the same rows in the same order.
  return [...rows.values()].sort((a, b) => a.agentId - b.agentId || a.bucket.getTime() - b.bucket.getTime());
}

export interface Sighting {
  agentId: number;
  answered: boolean;
  at: Date;
  version: string | null;
}

/** The latest thing each agent did in this batch: answered, or not. */
export function latestSightings(locations: readonly LocationOutcome[]): Sighting[] {
  const latest = new Map<number, Sighting>();
  for (const l of locations) {
    if (l.agentId === null) continue;
    const seen = latest.get(l.agentId);
    if (seen && seen.at.getTime() > l.observedAt.getTime()) continue;
    latest.set(l.agentId, { agentId: l.agentId, answered: l.status !== 'error', at: l.observedAt, version: l.agentVersion });
  }
  return [...latest.values()].sort((a, b) => a.agentId - b.agentId);
}
