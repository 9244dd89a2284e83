/** The agent's configuration, from environment variables only (docs/agent-protocol.md). */
export interface AgentConfig {
  /** The id the service gave this agent (`POST /api/v1/agents`); requests name it in X-Agent-Id. */
  agentId: string;
  /** The shared secret (`GET /api/v1/agents/{id}/credentials`). */
  secret: string;
  /** The place this agent checks from, e.g. `eu-west`. */
  location: string;
  port: number;
  host: string;
  /** Lift the SSRF guard for checks (self-hosted installs, tests), as ALLOW_PRIVATE_TARGETS does for workers. */
  allowPrivateTargets: boolean;
  logLevel: string;
}

export class AgentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Validates the environment; every problem is one line naming its variable. */
export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const agentId = value('AGENT_ID');
  if (agentId === undefined) problems.push('AGENT_ID: is required (the id of the agent in the service)');
  else if (!/^[A-Za-z0-9._-]{1,64}$/.test(agentId)) problems.push('AGENT_ID: must be 1-64 letters, digits, ".", "_" or "-"');
  const secret = env.AGENT_SECRET ?? '';
  if (secret === '') problems.push('AGENT_SECRET: is required (GET /api/v1/agents/{id}/credentials)');
  else if (secret.length < 16) problems.push('AGENT_SECRET: must be at least 16 characters');
  const location = value('AGENT_LOCATION');
  if (location === undefined) problems.push('AGENT_LOCATION: is required (e.g. eu-west)');
  else if (location.length > 64) problems.push('AGENT_LOCATION: must be at most 64 characters');
  const rawPort = value('PORT') ?? '8080';
  const port = /^\d{1,5}$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!(port >= 0 && port <= 65535)) problems.push('PORT: must be an integer from 0 to 65535');
  const allow = value('ALLOW_PRIVATE_TARGETS') ?? 'false';
  if (allow !== 'true' && allow !== 'false') problems.push('ALLOW_PRIVATE_TARGETS: must be true or false');
  const logLevel = value('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);
  if (problems.length > 0) throw new AgentConfigError(problems);
  return {
    agentId: agentId!,
    secret,
    location: location!,
    port,
    // An agent exists to be reached from the check-workers' network, so it listens on every interface.
    host: value('HOST') ?? '0.0.0.0',
    allowPrivateTargets: allow === 'true',
    logLevel,
  };
}
