import 'reflect-metadata';
import { loadConfigOrExit } from '@uptime/config';
import { openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startCheckWorker } from './check-worker';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'check-worker' });
  const dataSource = await openDatabase(config.databaseUrl, { poolSize: 10, applicationName: 'uptime-check-worker' });
  const running = await startCheckWorker({ config, dataSource, logger });
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down');
    await running.close();
    await dataSource.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`check-worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
