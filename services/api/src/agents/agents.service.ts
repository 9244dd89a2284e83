import type { Creator } from '../auth/caller';
import { changedFieldsOf, recordAudit, type AuditActor } from '../audit/audit';
import { randomBytes } from 'node:crypto';
import { isUniqueViolation, type Agent, type DataSource, type EntityManager } from '@uptime/db';
import { ConflictError } from '@uptime/errors';
import type { MonitorScheduler } from '@uptime/queues';
import type { PageRequest } from '../http/pagination';
import { findManageableAgent, type AgentCaller } from './agent-access';
import type { AgentFieldsDto, AgentStatusDto } from './agent.dto';
import type { NewAgent } from './agent-input';
import {
  deleteAgentRow,
  insertAgent,
  lockMonitorsOfAgent,
  lockOthersMonitorsOfAgent,
  reloadAgent,
  selectAccessibleAgents,
  selectAgents,
  unassignAgent,
  updateAgentRow,
} from './agents.repository';
import { rescheduleMonitors } from './reschedule-monitors';

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

async function saveUniquely<T>(work: () => Promise<T>, name: string | undefined): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('RESOURCE_EXISTS', `You already have an agent named "${name}"`);
    throw err;
  }
}

export async function createAgent(deps: AgentsDeps, creator: Creator, dto: NewAgent, actor: AuditActor): Promise<Agent> {
  const fields: Partial<Agent> = {
    ownerId: creator.userId,
    organizationId: creator.organizationId,
    name: dto.name,
    location: dto.location,
    url: normaliseUrl(dto.url),
    secret: generateAgentSecret(),
    status: 'active',
    isPublic: dto.is_public ?? false,
    version: null,
    lastSeenAt: null,
  };
  return saveUniquely(
    () =>
      deps.ds.transaction(async (em) => {
        const agent = await insertAgent(em, fields);
        await recordAudit(em, {
          organizationId: creator.organizationId,
          actor,
          action: 'agent.create',
          resourceId: agent.id,
          changedFields: changedFieldsOf(dto),
        });
        return agent;
      }),
    dto.name,
  );
}

/** The caller's agents (an admin's: everyone's), by id. */
export function listAgents(ds: DataSource, caller: AgentCaller, page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  return selectAgents(ds, caller.role === 'admin' ? null : caller.organizationId, page);
}

/** Agents the caller can assign: their own (any status) and other users' public active ones. */
export function listAccessibleAgents(ds: DataSource, caller: AgentCaller, page: PageRequest): Promise<{ items: Agent[]; total: number }> {
  return selectAccessibleAgents(ds, caller.organizationId, page);
}

/**
 * When an agent stops being public, other users' monitors stop using it: their assignments are
 * removed and their schedules rebuilt. Monitors are locked first (lockOthersMonitorsOfAgent).
 */
async function withdrawFromOthers(em: EntityManager, scheduler: MonitorScheduler, agent: Agent): Promise<void> {
  const monitorIds = await lockOthersMonitorsOfAgent(em, agent);
  if (monitorIds.length === 0) return;
  await unassignAgent(em, agent.id, monitorIds);
  await rescheduleMonitors(em, scheduler, monitorIds);
}

/**
 * Applies the given fields (owner or admin). Making it private withdraws it from other users' monitors.
 * Audit entries of agents go to the agent's organization, also when a service admin acts on it.
 */
export async function updateAgent(
  deps: AgentsDeps,
  caller: AgentCaller,
  id: number,
  dto: AgentFieldsDto,
  actor: AuditActor,
): Promise<Agent> {
  return deps.ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    await recordAudit(em, {
      organizationId: agent.organizationId,
      actor,
      action: 'agent.update',
      resourceId: id,
      changedFields: changedFieldsOf(dto),
    });
    const changes: Partial<Agent> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.location !== undefined) changes.location = dto.location;
    if (dto.url !== undefined) changes.url = normaliseUrl(dto.url);
    if (dto.is_public !== undefined) changes.isPublic = dto.is_public;
    if (agent.isPublic && changes.isPublic === false) await withdrawFromOthers(em, deps.scheduler, agent);
    if (Object.keys(changes).length > 0) await saveUniquely(() => updateAgentRow(em, id, changes), dto.name);
    return reloadAgent(em, id);
  });
}

export async function setAgentStatus(
  ds: DataSource,
  caller: AgentCaller,
  id: number,
  dto: AgentStatusDto,
  actor: AuditActor,
): Promise<Agent> {
  return ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    await recordAudit(em, {
      organizationId: agent.organizationId,
      actor,
      action: 'agent.status_update',
      resourceId: id,
      changedFields: ['status'],
    });
    await updateAgentRow(em, id, { status: dto.status });
    return reloadAgent(em, id);
  });
}

/** Publishes or unpublishes (flips when `isPublic` is undefined). */
export async function togglePublishing(
  deps: AgentsDeps,
  caller: AgentCaller,
  id: number,
  isPublic: boolean | undefined,
  actor: AuditActor,
): Promise<Agent> {
  return deps.ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    await recordAudit(em, {
      organizationId: agent.organizationId,
      actor,
      action: 'agent.publishing_update',
      resourceId: id,
      changedFields: ['is_public'],
    });
    const next = isPublic ?? !agent.isPublic;
    if (agent.isPublic && !next) await withdrawFromOthers(em, deps.scheduler, agent);
    if (next !== agent.isPublic) await updateAgentRow(em, id, { isPublic: next });
    return reloadAgent(em, id);
  });
}

export async function agentCredentials(ds: DataSource, caller: AgentCaller, id: number): Promise<{ agent_id: number; secret: string }> {
  const agent = await findManageableAgent(ds, caller, id);
  return { agent_id: agent.id, secret: agent.secret };
}

/** Deletes the agent, its assignments and counters; the monitors that used it are rescheduled without it. */
export async function deleteAgent(deps: AgentsDeps, caller: AgentCaller, id: number, actor: AuditActor): Promise<void> {
  await deps.ds.transaction(async (em) => {
    const agent = await findManageableAgent(em, caller, id);
    await recordAudit(em, { organizationId: agent.organizationId, actor, action: 'agent.delete', resourceId: id });
    const monitorIds = await lockMonitorsOfAgent(em, id);
    await deleteAgentRow(em, id);
    await rescheduleMonitors(em, deps.scheduler, monitorIds);
  });
}
