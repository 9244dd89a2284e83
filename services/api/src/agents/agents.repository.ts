import { Agent, columnsOf, DataSource, entityFromRow, queryAffected, queryRows, type EntityManager, type Monitor } from '@uptime/db';
import type { PageRequest } from '../http/pagination';
import { monitorsByIds } from '../monitors/monitors.repository';

/** The queries of agents and their assignments (monitor_agents); rules stay in the services. */

type Db = DataSource | EntityManager;

const agentsOf = (db: Db, rows: Record<string, unknown>[]): Agent[] => rows.map((row) => entityFromRow(db, Agent, row));
const managerOf = (db: Db): EntityManager => (db instanceof DataSource ? db.manager : db);

/** One page of the agents a WHERE selects (its parameters from $1), by id, and how many it selects. */
async function pageOfAgents(db: Db, where: string, params: unknown[], page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  const n = params.length;
  const [rows, [count]] = await Promise.all([
    db.query(`SELECT * FROM agents WHERE ${where} ORDER BY id LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, page.limit, page.offset]) as Promise<Record<string, unknown>[]>,
    db.query(`SELECT count(*)::int AS total FROM agents WHERE ${where}`, params) as Promise<{ total: number }[]>,
  ]);
  return { items: agentsOf(db, rows), total: count?.total ?? 0 };
}

/** Inserts an agent and answers it with its id and defaults. */
export async function insertAgent(db: Db, fields: Partial<Agent>): Promise<Agent> {
  const columns = columnsOf(db, Agent, fields);
  const [row]: Record<string, unknown>[] = await db.query(
    `INSERT INTO agents (${columns.map((c) => c.column).join(', ')}) VALUES (${columns.map((_c, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    columns.map((c) => c.value),
  );
  return entityFromRow(db, Agent, row!);
}

/** One page of agents by id, those of `organizationId` only unless null (an admin's view), and the total. */
export function selectAgents(db: Db, organizationId: number | null, page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  return organizationId === null ? pageOfAgents(db, 'true', [], page) : pageOfAgents(db, 'organization_id = $1', [organizationId], page);
}

/** One page of the agents an organization can assign: its own (any status) and other organizations' public active ones. */
export function selectAccessibleAgents(db: Db, organizationId: number, page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  return pageOfAgents(db, `organization_id = $1 OR (is_public AND status = 'active')`, [organizationId], page);
}

/** The agent as stored now (after a change in the same transaction). */
export async function reloadAgent(db: Db, id: number): Promise<Agent> {
  const agent = await selectAgent(db, id);
  if (!agent) throw new Error(`agent ${id} does not exist`);
  return agent;
}

/** Writes the given columns of the agent, and `updated_at`. */
export async function updateAgentRow(db: Db, id: number, changes: Partial<Agent>): Promise<void> {
  const params: unknown[] = [id];
  const sets = columnsOf(db, Agent, changes).map(({ column, value }) => `${column} = $${params.push(value)}`);
  await queryAffected(managerOf(db), `UPDATE agents SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1`, params);
}

/** Deletes the agent (its assignments go by cascade) and its counters. */
export async function deleteAgentRow(em: EntityManager, id: number): Promise<void> {
  await em.query(`DELETE FROM agents WHERE id = $1`, [id]);
  await em.query(`DELETE FROM agent_check_rollups_1h WHERE agent_id = $1`, [id]);
}

/**
 * Locks monitors in id order (FOR UPDATE), as the check-workers' batches do before they touch
 * agent rows: every transaction that changes both takes monitors first, so none deadlock.
 */
async function lockMonitors(em: EntityManager, idsSql: string, params: unknown[]): Promise<number[]> {
  const rows: { id: number }[] = await em.query(
    `SELECT m.id FROM monitors m WHERE m.id IN (${idsSql}) ORDER BY m.id FOR UPDATE OF m`,
    params,
  );
  return rows.map((r) => r.id);
}

/** Locks the monitors the agent is assigned to (see lockMonitors) and answers their ids. */
export function lockMonitorsOfAgent(em: EntityManager, agentId: number): Promise<number[]> {
  return lockMonitors(em, `SELECT monitor_id FROM monitor_agents WHERE agent_id = $1`, [agentId]);
}

/** Locks the monitors of organizations other than the agent's that it is assigned to. */
export function lockOthersMonitorsOfAgent(em: EntityManager, agent: Pick<Agent, 'id' | 'organizationId'>): Promise<number[]> {
  return lockMonitors(
    em,
    `SELECT ma.monitor_id FROM monitor_agents ma JOIN monitors o ON o.id = ma.monitor_id WHERE ma.agent_id = $1 AND o.organization_id <> $2`,
    [agent.id, agent.organizationId],
  );
}

/** Removes the agent from these monitors. */
export async function unassignAgent(em: EntityManager, agentId: number, monitorIds: readonly number[]): Promise<void> {
  await em.query(`DELETE FROM monitor_agents WHERE agent_id = $1 AND monitor_id = ANY($2)`, [agentId, [...monitorIds]]);
}

/** The agents assigned to a monitor, by id. */
export async function selectAssignedAgents(db: Db, monitorId: number): Promise<Agent[]> {
  const rows: Record<string, unknown>[] = await db.query(
    `SELECT a.* FROM agents a JOIN monitor_agents ma ON ma.agent_id = a.id AND ma.monitor_id = $1 ORDER BY a.id`,
    [monitorId],
  );
  return agentsOf(db, rows);
}

export async function selectAgentsByIds(em: EntityManager, ids: readonly number[]): Promise<Agent[]> {
  return agentsOf(em, await em.query(`SELECT * FROM agents WHERE id = ANY($1) ORDER BY id`, [[...ids]]));
}

/** How many agents the monitor would have with `ids` added. */
export async function countAgentsWith(em: EntityManager, monitorId: number, ids: readonly number[]): Promise<number> {
  const [{ count }]: { count: number }[] = await em.query(
    `SELECT count(*)::int AS count FROM (SELECT agent_id FROM monitor_agents WHERE monitor_id = $1 UNION SELECT unnest($2::int[])) all_agents`,
    [monitorId, [...ids]],
  );
  return count;
}

/** Assigns the agents; answers how many were not assigned yet. */
export async function insertAssignments(em: EntityManager, monitorId: number, ids: readonly number[]): Promise<number> {
  const inserted: unknown[] = await em.query(
    `INSERT INTO monitor_agents (monitor_id, agent_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING RETURNING agent_id`,
    [monitorId, [...ids]],
  );
  return inserted.length;
}

/** Unassigns the agents; answers how many were assigned. */
export async function deleteAssignments(em: EntityManager, monitorId: number, ids: readonly number[]): Promise<number> {
  const removed = await queryRows<{ agent_id: number }>(
    em,
    `DELETE FROM monitor_agents WHERE monitor_id = $1 AND agent_id = ANY($2::int[]) RETURNING agent_id`,
    [monitorId, [...ids]],
  );
  return removed.length;
}

/**
 * A new config version for these monitors (checks still carrying the old agent list are dropped
 * by the recorder), and the monitors as they are now, their agentIds reflecting the change.
 */
export async function bumpConfigVersions(em: EntityManager, monitorIds: readonly number[]): Promise<Monitor[]> {
  await em.query(`UPDATE monitors SET config_version = config_version + 1, updated_at = now() WHERE id = ANY($1)`, [[...monitorIds]]);
  return monitorsByIds(em, monitorIds);
}

/** Whether the organization holds the monitor. */
export async function ownsMonitor(db: DataSource, organizationId: number, monitorId: number): Promise<boolean> {
  const rows: unknown[] = await db.query(`SELECT 1 FROM monitors WHERE id = $1 AND organization_id = $2`, [monitorId, organizationId]);
  return rows.length > 0;
}

/** The agent with this id, if any; locked when `lock`. */
export async function selectAgent(db: Db, id: number, lock = false): Promise<Agent | null> {
  const [row]: Record<string, unknown>[] = await db.query(`SELECT * FROM agents WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
  return row ? entityFromRow(db, Agent, row) : null;
}

/** An answer from the agent: seen now, its version (agents.version is varchar(64)), active again if it was unreachable. */
export async function recordAgentAnswer(db: Db, id: number, version: string): Promise<void> {
  await db.query(
    `UPDATE agents SET last_seen_at = now(), version = $2, status = CASE WHEN status = 'unreachable' THEN 'active' ELSE status END WHERE id = $1`,
    [id, version.slice(0, 64)],
  );
}

/** No answer from the agent: an active one becomes unreachable. */
export async function markAgentUnreachable(db: Db, id: number): Promise<void> {
  await db.query(`UPDATE agents SET status = 'unreachable' WHERE id = $1 AND status = 'active'`, [id]);
}
