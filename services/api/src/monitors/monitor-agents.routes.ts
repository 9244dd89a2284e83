import { auditActorOf } from '../audit/audit';
import { Router } from 'express';
import { callerOf } from '../auth/caller';
import { sendData, sendMessage } from '../http/envelope';
import { parseId } from '../http/id-param';
import { parseInput } from '../http/validate';
import { AgentIdsDto } from '../agents/agent.dto';
import { toAgentResponse } from '../agents/agent.presenter';
import { assignAgents, listMonitorAgents, removeAgents, type MonitorAgentsDeps } from '../agents/monitor-agents.service';

/**
 * `/monitors/{id}/agents` (docs/monitors.md): the agents a monitor is also checked through. Each
 * answers 200 with the agents now assigned; a change reschedules the monitor so its checks
 * carry the new list.
 */
export function monitorAgentsRouter(deps: MonitorAgentsDeps): Router {
  const router = Router();
  const monitorId = (raw: unknown): number => parseId(raw, 'monitor');

  router.get('/:id/agents', async (req, res) => {
    const agents = await listMonitorAgents(deps.ds, callerOf(req), monitorId(req.params.id));
    sendData(res, agents.map(toAgentResponse));
  });

  router.post('/:id/agents', async (req, res) => {
    const id = monitorId(req.params.id);
    const dto = await parseInput(AgentIdsDto, req.body);
    const agents = await assignAgents(deps, callerOf(req), id, dto.agent_ids, auditActorOf(req));
    sendMessage(res, 'Agents assigned', agents.map(toAgentResponse));
  });

  router.delete('/:id/agents', async (req, res) => {
    const id = monitorId(req.params.id);
    const dto = await parseInput(AgentIdsDto, req.body);
    const agents = await removeAgents(deps, callerOf(req), id, dto.agent_ids, auditActorOf(req));
    sendMessage(res, 'Agents removed', agents.map(toAgentResponse));
  });

  return router;
}
