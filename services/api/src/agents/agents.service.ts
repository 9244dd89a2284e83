import { randomBytes } from 'node:crypto';
import { Agent, type DataSource, type EntityManager } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import type { PageRequest } from '../http/pagination';
import { findManageableAgent, type AgentCaller } from './agent-access';
import type { AgentFieldsDto, AgentStatusDto } from './agent.dto';
import type { NewAgent } from './agent-input';
import { lockMonitors, rescheduleMonitors } from './reschedule-monitors';

export interface AgentsDeps {
  ds: DataSource;
  scheduler: MonitorScheduler;
  /** ALLOW_PRIVATE_TARGETS: agents on loopback/private IP literals may be registered and called. */
  allowPrivateTargets: boolean;
}

/** 32 random bytes as hex: the HMAC key shared with the agent. */
export const generateAgentSecret = (): string => randomBytes(32).toString('hex');

/** The base URL as stored: without trailing slashes, so `{url}/v1/check` has one. */
const normaliseUrl = (url: string): string => url.replace(/\/+$/, '');

const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: string; driverError?: { code?: string } }).code === '23505' ||
  (err as { driverError?: { code?: string } }).driverError?.code === '23505';

async function saveUniquely<T>(work: () => Promise<T>, name: string | undefined): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('RESOURCE_EXISTS', `You already have an agent named "${name}"`);
    throw err;
  }
}

export async function createAgent(deps: AgentsDeps, ownerId: number, dto: NewAgent): Promise<Agent> {
  const repo = deps.ds.getRepository(Agent);
  const agent = repo.create({
    ownerId,
    name: dto.name,
    location: dto.location,
    url: normaliseUrl(dto.url),
    secret: generateAgentSecret(),
    status: 'active',
    isPublic: dto.is_public ?? false,
    version: null,
    lastSeenAt: null,
  });
  return saveUniquely(() => repo.save(agent), dto.name);
}

/** The caller's agents (an admin's: everyone's), by id. */
export async function listAgents(ds: DataSource, caller: AgentCaller, page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  const qb = ds.getRepository(Agent).createQueryBuilder('a');
  if (caller.role !== 'admin') qb.where('a.owner_id = :id', { id: caller.id });
  const [items, total] = await qb.orderBy('a.id', 'ASC').skip(page.offset).take(page.limit).getManyAndCount();
  return { items, total };
}

/** Agents the caller can assign: their own (any status) and other users' public active ones. */
export async function listAccessibleAgents(
  ds: DataSource,
  caller: AgentCaller,
  page: PageRequest,
): Promise<{ items: Agent[]; total: number }> {
  const [items, total] = await ds
    .getRepository(Agent)
    .createQueryBuilder('a')
    .where(`a.owner_id = :id OR (a.is_public AND a.status = 'active')`, { id: caller.id })
    .orderBy('a.id', 'ASC')
    .skip(page.offset)
    .take(page.limit)
    .getManyAndCount();
  return { items, total };
}

/**
 * When an agent stops being public, other users' monitors stop using it: their assignments are
 * removed and their schedules rebuilt. Monitors are locked first (see lockMonitors).
 */
async function withdrawFromOthers(em: EntityManager, scheduler: MonitorScheduler, agent: Agent): Promise<void> {
  const monitorIds = await lockMonitors(
    em,
    `SELECT ma.monitor_id FROM monitor_agents ma JOIN monitors o ON o.id = ma.monitor_id WHERE ma.agent_id = $1 AND o.owner_id <> $2`,
    [agent.id, agent.ownerId],
  );
  if (monitorIds.length === 0) return;
  await em.query(`DELETE FROM monitor_agents WHERE agent_id = $1 AND monitor_id = ANY($2)`, [agent.id, monitorIds]);
  await rescheduleMonitors(em, scheduler, monitorIds);
}

/** Applies the given fields (owner or admin). Making it private withdraws it from other users' monitors. */
export async function updateAgent(deps: AgentsDeps, caller: AgentCaller, id: number, dto: AgentFieldsDto): Promise<Agent> {
  return deps.ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    const changes: Partial<Agent> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.location !== undefined) changes.location = dto.location;
    if (dto.url !== undefined) changes.url = normaliseUrl(dto.url);
    if (dto.is_public !== undefined) changes.isPublic = dto.is_public;
    if (agent.isPublic && changes.isPublic === false) await withdrawFromOthers(em, deps.scheduler, agent);
    if (Object.keys(changes).length > 0) await saveUniquely(() => em.getRepository(Agent).update({ id }, changes), dto.name);
    return em.getRepository(Agent).findOneByOrFail({ id });
  });
}

export async function setAgentStatus(ds: DataSource, caller: AgentCaller, id: number, dto: AgentStatusDto): Promise<Agent> {
  return ds.transaction(async (em) => {
    await findManageableAgent(em, caller, id);
    await em.getRepository(Agent).update({ id }, { status: dto.status });
    return em.getRepository(Agent).findOneByOrFail({ id });
  });
}

/** Publishes or unpublishes (flips when `isPublic` is undefined). */
export async function togglePublishing(deps: AgentsDeps, caller: AgentCaller, id: number, isPublic: boolean | undefined): Promise<Agent> {
  return deps.ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    const next = isPublic ?? !agent.isPublic;
    if (agent.isPublic && !next) await withdrawFromOthers(em, deps.scheduler, agent);
    if (next !== agent.isPublic) await em.getRepository(Agent).update({ id }, { isPublic: next });
    return em.getRepository(Agent).findOneByOrFail({ id });
  });
}

export async function agentCredentials(ds: DataSource, caller: AgentCaller, id: number): Promise<{ agent_id: number; secret: string }> {
  const agent = await findManageableAgent(ds, caller, id);
  return { agent_id: agent.id, secret: agent.secret };
}

/** Deletes the agent, its assignments and counters; the monitors that used it are rescheduled without it. */
export async function deleteAgent(deps: AgentsDeps, caller: AgentCaller, id: number): Promise<void> {
  await deps.ds.transaction(async (em) => {
    await findManageableAgent(em, caller, id);
    const monitorIds = await lockMonitors(em, `SELECT monitor_id FROM monitor_agents WHERE agent_id = $1`, [id]);
    await em.getRepository(Agent).delete({ id });
    await em.query(`DELETE FROM agent_check_rollups_1h WHERE agent_id = $1`, [id]);
    await rescheduleMonitors(em, deps.scheduler, monitorIds);
  });
}
