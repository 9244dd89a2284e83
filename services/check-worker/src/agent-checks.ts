import { randomUUID } from 'node:crypto';
import { fromWireDns, requestAgentCheck, toWireCheck, type AgentCall, type AgentCheckResponse } from '@uptime/agent-protocol';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { CheckConfig } from '@uptime/probe';
import { AgentDirectory, type AgentTarget } from './agent-directory';
import type { LocationOutcome } from './location-vote';

/** What the run-check processor needs to run a check through agents. */
export interface AgentChecks {
  /** The name of the worker's own location (CHECK_LOCATION). */
  localLocation: string;
  /** The agents among `ids` to call now (cached lookup). */
  usable(ids: readonly number[]): Promise<AgentTarget[]>;
  /** Runs `check` through one agent; never rejects: an agent that does not answer is an 'error' location. */
  check(agent: AgentTarget, check: CheckConfig, ctx: { monitorId: number }): Promise<LocationOutcome>;
}

/** Time the agent gets beyond the check's own worst case (every attempt timing out). */
const AGENT_MARGIN_MS = 10_000;

export function agentCallTimeoutMs(check: CheckConfig): number {
  return check.timeout * (check.retryCount + 1) * 1000 + AGENT_MARGIN_MS;
}

/** A location's outcome from one agent call: its verdict when it answered, an 'error' location when not. */
function locationOutcomeOf(agent: AgentTarget, call: AgentCall<AgentCheckResponse>, observedAt: Date): LocationOutcome {
  if (!call.answered) {
    return {
      location: agent.location,
      agentId: agent.id,
      status: 'error',
      statusCode: null,
      responseTime: null,
      error: call.error,
      checkedAt: observedAt,
      observedAt,
      latencyMs: null,
      agentVersion: null,
    };
  }
  const { result, version } = call.value;
  return {
    // The location registered in the service names the place, whatever the agent calls itself.
    location: agent.location,
    agentId: agent.id,
    status: result.ok ? 'up' : 'down',
    statusCode: result.status_code,
    responseTime: result.response_time,
    error: result.error,
    checkedAt: new Date(result.checked_at),
    observedAt,
    latencyMs: call.latencyMs,
    agentVersion: version,
    ...(result.dns ? { dns: fromWireDns(result.dns) } : {}),
  };
}

/**
 * Agent checks over the real protocol (docs/agent-protocol.md), agents read from Postgres.
 * Calls to agents go through the SSRF guard unless ALLOW_PRIVATE_TARGETS.
 */
export function createAgentChecks(opts: {
  ds: DataSource;
  allowPrivateTargets: boolean;
  localLocation: string;
  logger: Logger;
  cacheTtlMs?: number;
}): AgentChecks {
  const directory = new AgentDirectory(opts.ds, opts.cacheTtlMs);
  // Per process, whether each agent answered last time: a dead agent is logged when it stops
  // answering and when it is back, not on every check.
  const answeredLast = new Map<number, boolean>();
  return {
    localLocation: opts.localLocation,
    usable: (ids) => directory.usable(ids),
    check: async (agent, check, ctx) => {
      const requestId = randomUUID();
      const call = await requestAgentCheck(
        agent,
        { request_id: requestId, monitor_id: ctx.monitorId, check: toWireCheck(check) },
        { allowPrivateTargets: opts.allowPrivateTargets, timeoutMs: agentCallTimeoutMs(check) },
      );
      const observedAt = new Date();
      if (answeredLast.get(agent.id) !== call.answered) {
        answeredLast.set(agent.id, call.answered);
        if (!call.answered)
          opts.logger.warn(
            { agent_id: agent.id, location: agent.location, monitor_id: ctx.monitorId, request_id: requestId, reason: call.error },
            'agent did not answer',
          );
        else opts.logger.info({ agent_id: agent.id, location: agent.location }, 'agent answers');
      }
      return locationOutcomeOf(agent, call, observedAt);
    },
  };
}
