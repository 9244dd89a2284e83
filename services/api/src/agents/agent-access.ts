import type { Agent, DataSource, EntityManager } from '@uptime/db';
import { ForbiddenError, NotFoundError } from '@uptime/errors';
import type { Caller } from '../auth/caller';
import { selectAgent } from './agents.repository';

/** Who asks, as far as agent rules go. */
export type AgentCaller = Pick<Caller, 'organizationId' | 'role'>;

const isAdmin = (c: AgentCaller): boolean => c.role === 'admin';

/** The organization's own, public, or any for a service admin (docs/agent-protocol.md). Anything else answers 404 as a missing agent. */
export const canSee = (a: Agent, c: AgentCaller): boolean => isAdmin(c) || a.organizationId === c.organizationId || a.isPublic;

/** Change, delete, publish, read credentials: its organization or a service admin. */
export const canManage = (a: Agent, c: AgentCaller): boolean => isAdmin(c) || a.organizationId === c.organizationId;

/** Assign to a monitor: own, public and active ("accessible"), or any for an admin. */
export const canAssign = (a: Agent, c: AgentCaller): boolean => isAdmin(c) || a.organizationId === c.organizationId || (a.isPublic && a.status === 'active');

/** The agent if the caller may see it; 404 AGENT_NOT_FOUND otherwise. */
export async function findVisibleAgent(ds: DataSource | EntityManager, caller: AgentCaller, id: number): Promise<Agent> {
  const agent = await selectAgent(ds, id);
  if (!agent || !canSee(agent, caller)) throw new NotFoundError('agent', id);
  return agent;
}

/**
 * The agent if the caller may change it: 404 when they cannot even see it, 403
 * INSUFFICIENT_PERMISSIONS when they can (someone else's public agent). Locked when `lock`.
 */
export async function findManageableAgent(
  em: DataSource | EntityManager,
  caller: AgentCaller,
  id: number,
  { lock = false } = {},
): Promise<Agent> {
  const agent = await selectAgent(em, id, lock);
  if (!agent || !canSee(agent, caller)) throw new NotFoundError('agent', id);
  if (!canManage(agent, caller)) throw new ForbiddenError('Only the organization of this agent or an admin may do this');
  return agent;
}
