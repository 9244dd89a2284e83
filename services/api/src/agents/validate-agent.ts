import { requestAgentHealth } from '@uptime/agent-protocol';
import type { DataSource } from '@uptime/db';
import type { AgentCaller } from './agent-access';
import { findManageableAgent } from './agent-access';
import { markAgentUnreachable, recordAgentAnswer } from './agents.repository';
import { recordAudit, type AuditActor } from '../audit/audit';

/** The answer of POST /agents/{id}/validate (docs/agent-protocol.md). */
export interface AgentValidation {
  reachable: boolean;
  latency_ms: number | null;
  version: string | null;
  error: string | null;
  checked_at: string;
}

const HEALTH_TIMEOUT_MS = 10_000;

/**
 * Calls the agent's signed `GET /v1/health` (through the SSRF guard unless ALLOW_PRIVATE_TARGETS)
 * and records what it learnt as the workers do: an answer sets last_seen_at and version (and
 * brings an unreachable agent back to active), no answer makes an active agent unreachable.
 * Since it changes the agent and calls out to it, only its owner or an admin may ask: someone
 * else's public agent is 403, as any change to it is (docs/security.md).
 */
export async function validateAgent(
  ds: DataSource,
  caller: AgentCaller,
  id: number,
  opts: { allowPrivateTargets: boolean },
  actor: AuditActor,
): Promise<AgentValidation> {
  const agent = await findManageableAgent(ds, caller, id);
  const checkedAt = new Date();
  const call = await requestAgentHealth(agent, { allowPrivateTargets: opts.allowPrivateTargets, timeoutMs: HEALTH_TIMEOUT_MS });
  const audit = { organizationId: agent.organizationId, actor, action: 'agent.validate', resourceId: agent.id } as const;
  if (call.answered) {
    await ds.transaction(async (em) => {
      await recordAgentAnswer(em, agent.id, call.value.version);
      await recordAudit(em, audit);
    });
    return { reachable: true, latency_ms: call.latencyMs, version: call.value.version, error: null, checked_at: checkedAt.toISOString() };
  }
  await ds.transaction(async (em) => {
    await markAgentUnreachable(em, agent.id);
    await recordAudit(em, audit);
  });
  return { reachable: false, latency_ms: call.latencyMs, version: null, error: call.error, checked_at: checkedAt.toISOString() };
}
