import { ValidationError } from '@uptime/errors';
import { assertTargetAllowed } from '../http/target-check';
import { parseInput } from '../http/validate';
import { AgentFieldsDto } from './agent.dto';

/** The rule of an agent body that comes from configuration. */
export interface AgentInputRules {
  /** ALLOW_PRIVATE_TARGETS: agents on loopback/private IP literals may be registered and called. */
  allowPrivateTargets: boolean;
}

/** The fields a new agent must have (docs/agent-protocol.md). */
export const AGENT_REQUIRED_ON_CREATE = ['name', 'location', 'url'] as const;

export type NewAgent = AgentFieldsDto & Required<Pick<AgentFieldsDto, (typeof AGENT_REQUIRED_ON_CREATE)[number]>>;

/**
 * Every rule of a create body, in the order they answer: the fields given (the DTO), then the
 * missing required ones, then the address of the agent. Unlike a monitor's, missing fields are
 * named only once the given ones are valid.
 */
export async function parseAgentCreate(body: unknown, rules: AgentInputRules): Promise<NewAgent> {
  const dto = await parseInput(AgentFieldsDto, body);
  const missing = AGENT_REQUIRED_ON_CREATE.filter((f) => dto[f] === undefined);
  if (missing.length > 0)
    throw new ValidationError(`Invalid body: ${missing.join(', ')}`, Object.fromEntries(missing.map((f) => [f, [`${f} is required`]])));
  assertTargetAllowed(rules, dto.url);
  return dto as NewAgent;
}

/** Every rule of a PUT body (all fields optional): the DTO, then the address of the agent. */
export async function parseAgentPatch(body: unknown, rules: AgentInputRules): Promise<AgentFieldsDto> {
  const dto = await parseInput(AgentFieldsDto, body);
  assertTargetAllowed(rules, dto.url);
  return dto;
}
