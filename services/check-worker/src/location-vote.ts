import type { DnsResult, ProbeResult } from '@uptime/probe';

/** up/down: the location's verdict on the target; error: the agent did not answer (no vote). */
export type LocationStatus = 'up' | 'down' | 'error';

/** One location's part of a check that ran at several places. */
export interface LocationOutcome {
  location: string;
  /** The agent that ran it; null for the worker's own location. */
  agentId: number | null;
  status: LocationStatus;
  statusCode: number | null;
  responseTime: number | null;
  error: string | null;
  /** When the location ran the check (the agent's clock for an agent). */
  checkedAt: Date;
  /** When the worker got the answer (or gave up): the agent's last_seen_at when it answered. */
  observedAt: Date;
  /** Round trip of the call to the agent, ms; null for the local location or no answer. */
  latencyMs: number | null;
  /** The version the agent reported, when it answered. */
  agentVersion: string | null;
  /** A dns check's answer at this location (an agent of protocol 3 sends it); absent otherwise. */
  dns?: DnsResult;
}

/** The worker's own probe as a location. */
export function localLocationOutcome(location: string, result: ProbeResult): LocationOutcome {
  return {
    location,
    agentId: null,
    status: result.ok ? 'up' : 'down',
    statusCode: result.statusCode,
    responseTime: result.responseTime,
    error: result.error,
    checkedAt: result.checkedAt,
    observedAt: new Date(),
    latencyMs: null,
    agentVersion: null,
    ...(result.dns ? { dns: result.dns } : {}),
  };
}

/**
 * The worker's own location when it could not run the check itself (a ping check without ICMP):
 * an 'error' location, out of the vote, and the stand-in result overallResult() reads its time from.
 */
export function unreachedLocalOutcome(location: string, error: string): { outcome: LocationOutcome; result: ProbeResult } {
  const now = new Date();
  const result: ProbeResult = { ok: false, statusCode: null, responseTime: null, error, checkedAt: now, attempts: 1 };
  return { outcome: { ...localLocationOutcome(location, result), status: 'error' }, result };
}

export interface Tally {
  answering: number;
  failing: number;
  /** docs/agent-protocol.md: a failure when more than half of the answering locations report failure. */
  ok: boolean;
}

export function tallyLocations(locations: readonly LocationOutcome[]): Tally {
  const answering = locations.filter((l) => l.status !== 'error').length;
  const failing = locations.filter((l) => l.status === 'down').length;
  return { answering, failing, ok: failing * 2 <= answering };
}

/**
 * The check's overall result (the one check_results row): the majority verdict, with the status
 * code and response time of a location that agrees with it (the local one when it does), and
 * on failure an error naming every failing location.
 */
export function overallResult(local: ProbeResult, localLocation: string, locations: readonly LocationOutcome[]): ProbeResult {
  const tally = tallyLocations(locations);
  const agreeing = tally.ok ? 'up' : 'down';
  const own = locations.find((l) => l.agentId === null && l.location === localLocation);
  const representative = own?.status === agreeing ? own : locations.find((l) => l.status === agreeing);
  const error = tally.ok
    ? null
    : `Down in ${tally.failing} of ${tally.answering} locations: ${locations
        .filter((l) => l.status === 'down')
        .map((l) => `${l.location}: ${l.error ?? 'failed'}`)
        .join('; ')}`;
  return {
    ok: tally.ok,
    statusCode: representative?.statusCode ?? local.statusCode,
    responseTime: representative?.responseTime ?? local.responseTime,
    error,
    checkedAt: local.checkedAt,
    attempts: local.attempts,
    // Phases are measured here only; an agent's figures stay with its location's result.
    ...(representative === own && local.timings ? { timings: local.timings } : {}),
    // A dns check's answer: the agreeing location's, as its status code is.
    ...(representative?.dns ? { dns: representative.dns } : {}),
    ...(representative === own && local.ping ? { ping: local.ping } : {}),
  };
}
