import { In } from 'typeorm';
import { Agent, Monitor, queryRows, type DataSource, type EntityManager } from '@uptime/db';
import { DomainError, NotFoundError, ValidationError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import { canAssign, type AgentCaller } from './agent-access';
import { rescheduleMonitors } from './reschedule-monitors';

/** Each agent adds a call per check; a monitor checked from more places than this is a mistake. */
export const MAX_AGENTS_PER_MONITOR = 20;

export interface MonitorAgentsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
}

async function assignedAgents(em: DataSource | EntityManager, monitorId: number): Promise<Agent[]> {
  return em
    .getRepository(Agent)
    .createQueryBuilder('a')
    .innerJoin('monitor_agents', 'ma', 'ma.agent_id = a.id AND ma.monitor_id = :monitorId', { monitorId })
    .orderBy('a.id', 'ASC')
    .getMany();
}

/** The caller's monitor under a row lock; another owner's answers 404 as a missing one. */
async function lockOwnedMonitor(em: EntityManager, ownerId: number, id: number): Promise<Monitor> {
  const monitor = await em.getRepository(Monitor).findOne({ where: { id, ownerId }, lock: { mode: 'pessimistic_write' } });
  if (!monitor) throw new NotFoundError('monitor', id);
  return monitor;
}

export async function listMonitorAgents(ds: DataSource, caller: AgentCaller, monitorId: number): Promise<Agent[]> {
  const monitor = await ds.getRepository(Monitor).findOne({ where: { id: monitorId, ownerId: caller.id }, select: { id: true } });
  if (!monitor) throw new NotFoundError('monitor', monitorId);
  return assignedAgents(ds, monitorId);
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
): Promise<Agent[]> {
  const ids = [...new Set(agentIds)];
  return deps.ds.transaction(async (em) => {
    await lockOwnedMonitor(em, caller.id, monitorId);
    const agents = await em.getRepository(Agent).findBy({ id: In(ids) });
    const usable = new Set(agents.filter((a) => canAssign(a, caller)).map((a) => a.id));
    const refused = ids.filter((id) => !usable.has(id));
    if (refused.length > 0) {
      throw new DomainError(
        'INSUFFICIENT_PERMISSIONS',
        `You may not assign agent(s) ${refused.join(', ')}: only your own agents and public active ones`,
        { agent_ids: refused },
      );
    }
    const [{ count }]: { count: number }[] = await em.query(
      `SELECT count(*)::int AS count FROM (SELECT agent_id FROM monitor_agents WHERE monitor_id = $1 UNION SELECT unnest($2::int[])) all_agents`,
      [monitorId, ids],
    );
    if (count > MAX_AGENTS_PER_MONITOR) {
      throw new ValidationError('Invalid body: agent_ids', { agent_ids: [`a monitor can have at most ${MAX_AGENTS_PER_MONITOR} agents`] });
    }
    const inserted: unknown[] = await em.query(
      `INSERT INTO monitor_agents (monitor_id, agent_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING RETURNING agent_id`,
      [monitorId, ids],
    );
    if (inserted.length > 0) await rescheduleMonitors(em, deps.scheduler, [monitorId]);
    return assignedAgents(em, monitorId);
  });
}

/** Removes agents from the monitor; ids not assigned are ignored. */
export async function removeAgents(
  deps: MonitorAgentsDeps,
  caller: AgentCaller,
  monitorId: number,
  agentIds: readonly number[],
): Promise<Agent[]> {
  return deps.ds.transaction(async (em) => {
    await lockOwnedMonitor(em, caller.id, monitorId);
    const removed = await queryRows<{ agent_id: number }>(
      em,
      `DELETE FROM monitor_agents WHERE monitor_id = $1 AND agent_id = ANY($2::int[]) RETURNING agent_id`,
      [monitorId, [...new Set(agentIds)]],
    );
    if (removed.length > 0) await rescheduleMonitors(em, deps.scheduler, [monitorId]);
    return assignedAgents(em, monitorId);
  });
}
