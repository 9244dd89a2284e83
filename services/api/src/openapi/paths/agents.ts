import { dataEnvelope, listEnvelope, messageEnvelope } from '../common-schemas';
import { dataExample, EXAMPLE_AGENT, listExample, messageExample } from '../examples';
import { ref } from '../json-schema';
import { idParam, pageParams, type OperationSpec } from '../operation';

const BASE = '/api/v1/agents';
const AGENT = `${BASE}/{id}`;
const id = idParam('agent');
const agentAnswer = (description: string) => ({ description, schema: dataEnvelope(ref('Agent')), example: dataExample(EXAMPLE_AGENT) });
/** Changing an agent is for its owner or an admin: others get 403 (or 404 when they cannot see it). */
const manage = ['AGENT_NOT_FOUND', 'INSUFFICIENT_PERMISSIONS'] as const;

/** `/agents` (agents.routes.ts, docs/agent-protocol.md). */
export const AGENT_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: BASE,
    operationId: 'listAgents',
    tag: 'Agents',
    summary: 'List your agents (admins: all)',
    parameters: pageParams(25, 100),
    responses: { 200: { description: 'A page of agents', schema: listEnvelope(ref('Agent')), example: listExample([EXAMPLE_AGENT]) } },
  },
  {
    method: 'post',
    path: BASE,
    operationId: 'createAgent',
    tag: 'Agents',
    summary: 'Register an agent',
    description: 'The answer carries the HMAC secret the agent signs with; it is shown again only by /credentials.',
    body: { schema: ref('AgentCreate'), required: true, example: { name: 'Frankfurt', location: 'eu-central', url: 'https://agent-fra.example.com' } },
    responses: {
      201: {
        description: 'The new agent with its secret',
        schema: dataEnvelope(ref('AgentWithSecret')),
        example: dataExample({ ...EXAMPLE_AGENT, version: null, last_seen_at: null, secret: '9f2c4b7e1a0d83f65c2e9b14d7a0c3f8e6b5a49d2c1f0e7a8b3d6c5e4f2a1b09' }),
      },
    },
    errors: ['RESOURCE_EXISTS'],
  },
  {
    method: 'get',
    path: `${BASE}/accessible`,
    operationId: 'listAccessibleAgents',
    tag: 'Agents',
    summary: 'Agents you can assign: your own and public active ones',
    parameters: pageParams(25, 100),
    responses: { 200: { description: 'A page of agents', schema: listEnvelope(ref('Agent')), example: listExample([EXAMPLE_AGENT]) } },
  },
  {
    method: 'get',
    path: `${BASE}/stats`,
    operationId: 'getAgentStats',
    tag: 'Agents',
    summary: 'Per-agent statistics over the last 24 hours',
    description: 'Of the agents you can use (admins: all), from hourly rollups.',
    responses: { 200: { description: 'The statistics', schema: dataEnvelope(ref('AgentStats')) } },
  },
  {
    method: 'get',
    path: AGENT,
    operationId: 'getAgent',
    tag: 'Agents',
    summary: 'Get an agent',
    parameters: [id],
    responses: { 200: agentAnswer('The agent') },
    errors: ['AGENT_NOT_FOUND'],
  },
  {
    method: 'put',
    path: AGENT,
    operationId: 'updateAgent',
    tag: 'Agents',
    summary: 'Change an agent',
    description: 'A partial body. Making a public agent private withdraws it from other users\' monitors.',
    parameters: [id],
    body: { schema: ref('AgentUpdate'), required: false, example: { name: 'Frankfurt 2' } },
    responses: { 200: agentAnswer('The agent') },
    errors: [...manage, 'RESOURCE_EXISTS'],
  },
  {
    method: 'delete',
    path: AGENT,
    operationId: 'deleteAgent',
    tag: 'Agents',
    summary: 'Delete an agent',
    description: 'The monitors that used it are rescheduled without it.',
    parameters: [id],
    responses: { 200: { description: 'Deleted', schema: ref('MessageResponse'), example: messageExample('Agent deleted') } },
    errors: [...manage],
  },
  {
    method: 'patch',
    path: `${AGENT}/status`,
    operationId: 'setAgentStatus',
    tag: 'Agents',
    summary: 'Set an agent to active, inactive or maintenance',
    description: '`unreachable` is set by the service only.',
    parameters: [id],
    body: { schema: ref('AgentStatusUpdate'), required: true, example: { status: 'maintenance' } },
    responses: { 200: agentAnswer('The agent') },
    errors: [...manage],
  },
  {
    method: 'post',
    path: `${AGENT}/validate`,
    operationId: 'validateAgent',
    tag: 'Agents',
    summary: "Call the agent's health endpoint",
    description: 'A signed GET {url}/v1/health; an answer records last_seen_at and version, no answer makes an active agent unreachable. Takes no body. Only the owner or an admin may validate: it changes the agent and calls out to it, so another user\'s public agent answers 403 INSUFFICIENT_PERMISSIONS and nothing about it changes.',
    parameters: [id],
    responses: { 200: { description: 'What the call found', schema: dataEnvelope(ref('AgentValidation')) } },
    errors: [...manage],
  },
  {
    method: 'get',
    path: `${AGENT}/credentials`,
    operationId: 'getAgentCredentials',
    tag: 'Agents',
    summary: "The agent's id and HMAC secret",
    parameters: [id],
    responses: { 200: { description: 'The credentials', schema: dataEnvelope(ref('AgentCredentials')) } },
    errors: [...manage],
  },
  {
    method: 'patch',
    path: `${AGENT}/toggle-publishing`,
    operationId: 'toggleAgentPublishing',
    tag: 'Agents',
    summary: 'Publish or unpublish an agent',
    description: 'Without `is_public`, flips it. Unpublishing withdraws it from other users\' monitors.',
    parameters: [id],
    body: { schema: ref('TogglePublishing'), required: false, example: { is_public: true } },
    responses: {
      200: { description: 'The agent', schema: messageEnvelope(ref('Agent')), example: messageExample('Agent published', { ...EXAMPLE_AGENT, is_public: true }) },
    },
    errors: [...manage],
  },
];
