import { recordAudit, type AuditActor } from '../audit/audit';
import type { Agent, DataSource } from '@uptime/db';
import { DomainError, NotFoundError, ValidationError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import { lockOwnMonitor } from '../monitors/monitors.repository';
import { canAssign, type AgentCaller } from './agent-access';
import {
  countAgentsWith,
  deleteAssignments,
  insertAssignments,
  ownsMonitor,
  selectAgentsByIds,
  selectAssignedAgents,
} from './agents.repository';
import { rescheduleMonitors } from './reschedule-monitors';

/** Each agent adds a call per check; a monitor checked from more places than this is a mistake. */
export const MAX_AGENTS_PER_MONITOR = 20;

export interface MonitorAgentsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
}

export async function listMonitorAgents(ds: DataSource, caller: AgentCaller, monitorId: number): Promise<Agent[]> {
  if (!(await ownsMonitor(ds, caller.organizationId, monitorId))) throw new NotFoundError('monitor', monitorId);
  return selectAssignedAgents(ds, monitorId);
}

/**
 * Assigns agents (adding to those already assigned). Only agents the caller can use may be
 * assigned: their own, public active ones, any for an admin; anything else, including an id
 * that names no agent, is 403 INSUFFICIENT_PERMISSIONS, so private agents cannot be probed for.
 */
export async function assignAgents(
  deps: MonitorAgentsDeps,
  caller: AgentCaller,
  monitorId: number,
  agentIds: readonly number[],
  actor: AuditActor,
): Promise<Agent[]> {
  const ids = [...new Set(agentIds)];
  return deps.ds.transaction(async (em) => {
    const monitor = await lockOwnMonitor(em, caller.organizationId, monitorId);
    // Agents run probes; a heartbeat has none (docs/heartbeats.md).
    if (monitor.type === 'heartbeat') throw new ValidationError('Invalid body: agent_ids', { agent_ids: ['a heartbeat monitor has no checks for agents to run'] });
    await recordAudit(em, {
      organizationId: caller.organizationId,
      actor,
      action: 'monitor.agents_assign',
      resourceId: monitorId,
      changedFields: ['agent_ids'],
    });
    const agents = await selectAgentsByIds(em, ids);
    const usable = new Set(agents.filter((a) => canAssign(a, caller)).map((a) => a.id));
    const refused = ids.filter((id) => !usable.has(id));
    if (refused.length > 0) {
      throw new DomainError(
        'INSUFFICIENT_PERMISSIONS',
        `You may not assign agent(s) ${refused.join(', ')}: only your own agents and public active ones`,
        { agent_ids: refused },
      );
    }
    if ((await countAgentsWith(em, monitorId, ids)) > MAX_AGENTS_PER_MONITOR) {
      throw new ValidationError('Invalid body: agent_ids', { agent_ids: [`a monitor can have at most ${MAX_AGENTS_PER_MONITOR} agents`] });
    }
    if ((await insertAssignments(em, monitorId, ids)) > 0) await rescheduleMonitors(em, deps.scheduler, [monitorId]);
    return selectAssignedAgents(em, monitorId);
  });
}

/** Removes agents from the monitor; ids not assigned are ignored. */
export async function removeAgents(
  deps: MonitorAgentsDeps,
  caller: AgentCaller,
  monitorId: number,
  agentIds: readonly number[],
  actor: AuditActor,
): Promise<Agent[]> {
  return deps.ds.transaction(async (em) => {
    await lockOwnMonitor(em, caller.organizationId, monitorId);
    await recordAudit(em, {
      organizationId: caller.organizationId,
      actor,
      action: 'monitor.agents_remove',
      resourceId: monitorId,
      changedFields: ['agent_ids'],
    });
    if ((await deleteAssignments(em, monitorId, [...new Set(agentIds)])) > 0) await rescheduleMonitors(em, deps.scheduler, [monitorId]);
    return selectAssignedAgents(em, monitorId);
  });
}
