import { createLogger } from '@uptime/logger';
import { AgentConfigError, loadAgentConfig, type AgentConfig } from './agent-config';
import { startAgent } from './agent-server';
import { AGENT_VERSION } from './version';

function configOrExit(): AgentConfig {
  try {
    return loadAgentConfig();
  } catch (err) {
    if (!(err instanceof AgentConfigError)) throw err;
    for (const line of err.problems) process.stderr.write(`config error: ${line}\n`);
    process.exit(1);
  }
}

/** `pnpm agent`: the reference agent, configured by AGENT_ID, AGENT_SECRET, AGENT_LOCATION and PORT. */
async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'agent' }).child({ agent_id: config.agentId, location: config.location });
  const agent = await startAgent({ ...config, logger });
  logger.info(
    { url: agent.url, host: config.host, port: (agent.server.address() as { port: number }).port, version: AGENT_VERSION },
    'agent listening',
  );
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down');
    await agent.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`agent failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
