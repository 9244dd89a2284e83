import 'reflect-metadata';
import { startApi } from '@uptime/api';
import { startCheckWorker } from '@uptime/check-worker';
import { loadConfigOrExit } from '@uptime/config';
import { openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startNotifier } from '@uptime/notifier';

/**
 * api, check-worker and notifier in one Node process (`pnpm start`), for local use and small
 * self-hosted installs. They share one database pool and talk through Redis exactly as when
 * they run apart.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'uptime' });
  const dataSource = await openDatabase(config.databaseUrl, { poolSize: 20, applicationName: 'uptime' });
  const notifier = await startNotifier({ config, dataSource, logger: logger.child({ component: 'notifier' }) });
  const worker = await startCheckWorker({ config, dataSource, logger: logger.child({ component: 'check-worker' }) });
  const api = await startApi({ config, dataSource, logger: logger.child({ component: 'api' }) });
  const shutdown = async (signal: string): Promise<void> => {
    logger.info({ signal }, 'shutting down');
    await api.close();
    await worker.close();
    await notifier.close();
    await dataSource.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`uptime failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
