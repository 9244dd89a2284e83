import { auditActorOf } from '../audit/audit';
import { Router } from 'express';
import { callerOf, creatorOf } from '../auth/caller';
import { sendData, sendList, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parsePage } from '../http/pagination';
import { parseInput } from '../http/validate';
import { findVisibleAgent } from './agent-access';
import { AgentStatusDto, assertNoBodyFields, TogglePublishingDto } from './agent.dto';
import { parseAgentCreate, parseAgentPatch } from './agent-input';
import { toAgentResponse } from './agent.presenter';
import { agentStats } from './agent-stats.repository';
import {
  agentCredentials,
  createAgent,
  deleteAgent,
  listAccessibleAgents,
  listAgents,
  setAgentStatus,
  togglePublishing,
  updateAgent,
  type AgentsDeps,
} from './agents.service';
import { validateAgent } from './validate-agent';

const PAGE = { defaultLimit: 25, maxLimit: 100 };
const agentId = (raw: unknown): number => parseId(raw, 'agent');

/** `/agents` (docs/agent-protocol.md): probes at other places, their credentials, status and statistics. */
export function agentsRouter(deps: AgentsDeps): Router {
  const router = Router();
  const { ds } = deps;

  router.get('/', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, PAGE);
    const { items, total } = await listAgents(ds, callerOf(req), page);
    sendList(res, items.map(toAgentResponse), { page: page.page, limit: page.limit, total });
  });

  router.post('/', async (req, res) => {
    const dto = await parseAgentCreate(req.body, deps);
    const agent = await createAgent(deps, creatorOf(req), dto, auditActorOf(req));
    // The secret is shown here to the owner who just created it, and later only by /credentials.
    sendData(res, { ...toAgentResponse(agent), secret: agent.secret }, 201);
  });

  router.get('/accessible', async (req, res) => {
    const page = parsePage(req.query as Record<string, unknown>, PAGE);
    const { items, total } = await listAccessibleAgents(ds, callerOf(req), page);
    sendList(res, items.map(toAgentResponse), { page: page.page, limit: page.limit, total });
  });

  router.get('/stats', async (req, res) => {
    sendData(res, await agentStats(ds, callerOf(req)));
  });

  router.get('/:id', async (req, res) => {
    sendData(res, toAgentResponse(await findVisibleAgent(ds, callerOf(req), agentId(req.params.id))));
  });

  addAgentActions(router, deps);
  return router;
}

/** The changes and calls of one agent: owner or admin (agent-access.ts). */
function addAgentActions(router: Router, deps: AgentsDeps): void {
  const { ds } = deps;

  router.put('/:id', async (req, res) => {
    const id = agentId(req.params.id);
    const dto = await parseAgentPatch(req.body ?? {}, deps);
    sendData(res, toAgentResponse(await updateAgent(deps, callerOf(req), id, dto, auditActorOf(req))));
  });

  router.patch('/:id/status', async (req, res) => {
    const id = agentId(req.params.id);
    const dto = await parseInput(AgentStatusDto, req.body ?? {});
    sendData(res, toAgentResponse(await setAgentStatus(ds, callerOf(req), id, dto, auditActorOf(req))));
  });

  router.post('/:id/validate', async (req, res) => {
    const id = agentId(req.params.id);
    assertNoBodyFields(req.body);
    sendData(res, await validateAgent(ds, callerOf(req), id, { allowPrivateTargets: deps.allowPrivateTargets }, auditActorOf(req)));
  });

  router.get('/:id/credentials', async (req, res) => {
    sendData(res, await agentCredentials(ds, callerOf(req), agentId(req.params.id)));
  });

  router.delete('/:id', async (req, res) => {
    await deleteAgent(deps, callerOf(req), agentId(req.params.id), auditActorOf(req));
    sendMessage(res, 'Agent deleted');
  });

  router.patch('/:id/toggle-publishing', async (req, res) => {
    const id = agentId(req.params.id);
    const dto = await parseInput(TogglePublishingDto, req.body ?? {});
    const agent = await togglePublishing(deps, callerOf(req), id, dto.is_public, auditActorOf(req));
    sendMessage(res, agent.isPublic ? 'Agent published' : 'Agent unpublished', toAgentResponse(agent));
  });
}
