import 'reflect-metadata';
import { startApi } from '@uptime/api';
import { startCheckWorker, type RunningCheckWorker } from '@uptime/check-worker';
import { loadConfigOrExit, type Config } from '@uptime/config';
import { createDataSource } from '@uptime/db';
import { createLogger, defaultLogFormat } from '@uptime/logger';
import { startNotifier, type Notifier } from '@uptime/notifier';
import { connectDatabase, createServiceMetrics, onShutdownSignal, SHUTDOWN_GRACE_MS, stopWithin } from '@uptime/observability';
import { printBanner, startupBanner } from './banner';
import { provideLocalServices } from './local/local-services';

/**
 * api, check-worker and notifier in one Node process (`pnpm start`), for local use and small
 * self-hosted installs. They share one database pool and one metrics registry (the API's
 * /metrics shows all three) and talk through Redis exactly as when they run apart. The API
 * listens first, so /healthz and /readyz answer while Postgres is still being connected to.
 */
async function main(): Promise<void> {
  const configured = loadConfigOrExit();
  const format = configured.logFormat ?? defaultLogFormat();
  const logger = createLogger({ level: configured.logLevel, service: 'uptime', format });
  // Postgres and Redis: configured, found at the default addresses, or started here (docs/first-run.md).
  const local = await provideLocalServices(configured, logger);
  stopLocalServices = local.stop;
  const config: Config = { ...configured, databaseUrl: local.databaseUrl, redis: { ...configured.redis, url: local.redisUrl } };
  const metrics = createServiceMetrics({ processMetrics: true });
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 20, applicationName: 'uptime' });
  const databaseReady = connectDatabase(dataSource, config.databaseUrl, { logger, signal: starting.signal });
  const api = await startApi({ config, dataSource, logger: logger.child({ component: 'api' }), metrics, databaseReady });
  // Filled in once started; the shutdown handler stops whatever has started by then.
  const started: { notifier?: Notifier; worker?: RunningCheckWorker } = {};
  onShutdownSignal(logger, async () => {
    starting.abort(new Error('shutting down'));
    // Everything stops taking work at once; the 30 s grace is shared, not added up.
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    const left = (): number => Math.max(0, deadline - Date.now());
    const outcomes = await Promise.all([
      stopWithin(
        left(),
        () => api.close(),
        async () => api.server.closeAllConnections(),
        logger,
      ),
      started.worker?.stop({ graceMs: left() }) ?? 'graceful',
    ]);
    // The notifier last: a check finished during shutdown may still publish a status change.
    outcomes.push((await started.notifier?.stop({ graceMs: Math.max(left(), 1000) })) ?? 'graceful');
    const closed = await stopWithin(
      5000,
      async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
      },
      async () => undefined,
      logger,
    );
    // Only now the servers started for this run: everything above may still write to them.
    await local.stop();
    return outcomes.every((o) => o === 'graceful') && closed === 'graceful' ? 0 : 1;
  });
  await databaseReady;
  started.notifier = await startNotifier({ config, dataSource, logger: logger.child({ component: 'notifier' }), metrics });
  started.worker = await startCheckWorker({ config, dataSource, logger: logger.child({ component: 'check-worker' }), metrics });
  printBanner(startupBanner(config, local), format === 'pretty', logger);
}

/** The start-up error in words that name the setting to change, where there is one. */
function startupFailure(err: unknown): string {
  const { code, address, port } = (err ?? {}) as { code?: string; address?: string; port?: number };
  if (code === 'EADDRINUSE') return `${address}:${port} is already in use by another program: set PORT (or HOST) to a free address, or stop that program.`;
  return err instanceof Error ? err.message : String(err);
}

/** Aborted by a shutdown, or by a failed start, so the database connection stops retrying. */
const starting = new AbortController();
/** Set once Postgres and Redis are provided: a failed start still stops what it started. */
let stopLocalServices: (() => Promise<void>) | undefined;

main().catch(async (err: unknown) => {
  // A shutdown during start-up aborts the connection attempts; the signal handler exits.
  if (err instanceof Error && err.message === 'shutting down') return;
  // One plain message, no stack trace: the errors met here say what to do (a missing Redis, a
  // data folder in use, an embedded database that could not start).
  process.stderr.write(`uptime failed to start: ${startupFailure(err)}\n`);
  starting.abort(new Error('start-up failed'));
  await stopLocalServices?.().catch(() => undefined);
  process.exit(1);
});
