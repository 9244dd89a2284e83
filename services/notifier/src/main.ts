import 'reflect-metadata';
import { loadConfigOrExit } from '@uptime/config';
import { openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { startNotifier } from './notifier';

/** The standalone notifier process: any number may run side by side. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'notifier' });
  const dataSource = await openDatabase(config.databaseUrl, { poolSize: 10, applicationName: 'uptime-notifier' });
  const notifier = await startNotifier({ config, dataSource, logger });

  let isStopping = false;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (isStopping) return;
    isStopping = true;
    logger.info({ signal }, 'shutting down: finishing jobs in flight');
    try {
      // Worker first: its jobs in flight still need the database.
      await notifier.close();
      await dataSource.destroy();
      logger.info('notifier stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
}

main().catch((err: unknown) => {
  process.stderr.write(`notifier failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
