import 'reflect-metadata';
import { loadConfigOrExit } from '@uptime/config';
import { openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startApi } from './start-api';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'api' });
  const dataSource = await openDatabase(config.databaseUrl, { poolSize: 20, applicationName: 'uptime-api' });
  const api = await startApi({ config, dataSource, logger });
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down');
    await api.close();
    await dataSource.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
