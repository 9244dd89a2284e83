export { createAgentServer, startAgent, type AgentServerOptions, type RunningAgent } from './agent-server';
export { loadAgentConfig, AgentConfigError, type AgentConfig } from './agent-config';
export { AGENT_VERSION } from './version';
