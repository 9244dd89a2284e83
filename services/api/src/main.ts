import 'reflect-metadata';
import { loadConfigOrExit } from '@uptime/config';
import { createDataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { connectDatabase, createServiceMetrics, onShutdownSignal, SHUTDOWN_GRACE_MS, stopWithin } from '@uptime/observability';
import { startApi } from './start-api';

/**
 * The standalone API process. It listens at once: /healthz answers 200 and /readyz 503 while
 * Postgres is still being connected to (retried, never a reason to exit), and other requests
 * get 503 until then. SIGTERM: stop accepting connections, let requests in flight finish within
 * 30 s, close pools, exit 0 (1 when requests had to be cut off).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'api', format: config.logFormat });
  const metrics = createServiceMetrics({ processMetrics: true });
  // Migrations and background work only: requests have a pool of their own (start-api.ts).
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 4, applicationName: 'uptime-api-background' });
  const starting = new AbortController();
  const databaseReady = connectDatabase(dataSource, config.databaseUrl, { logger, signal: starting.signal });
  const api = await startApi({ config, dataSource, logger, metrics, databaseReady });
  onShutdownSignal(logger, async () => {
    starting.abort(new Error('shutting down'));
    const outcome = await stopWithin(
      SHUTDOWN_GRACE_MS,
      () => api.close(),
      async () => api.server.closeAllConnections(),
      logger,
    );
    const closed = await stopWithin(
      5000,
      async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
      },
      async () => undefined,
      logger,
    );
    return outcome === 'graceful' && closed === 'graceful' ? 0 : 1;
  });
  await databaseReady;
}

main().catch((err: unknown) => {
  // A shutdown during start-up aborts the connection attempts; the signal handler exits.
  if (err instanceof Error && err.message === 'shutting down') return;
  process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
