import 'reflect-metadata';
import { loadConfigOrExit } from '@uptime/config';
import { createDataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import {
  closeRedis,
  connectDatabase,
  createReadiness,
  createServiceMetrics,
  healthPortOf,
  onShutdownSignal,
  SHUTDOWN_GRACE_MS,
  startHealthServer,
  stopWithin,
  type StopOutcome,
} from '@uptime/observability';
import { createRedisConnection } from '@uptime/queues';
import { startNotifier, type Notifier } from './notifier';

/**
 * The standalone notifier process: any number may run side by side. Its health/metrics listener
 * (HEALTH_PORT) comes up first and answers /readyz 503 until Postgres and Redis answer; the
 * database is retried at start, never a reason to exit. SIGTERM: stop taking jobs, finish those
 * in flight within 30 s, close pools, exit 0 (1 when work had to be cut short).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'notifier' });
  const metrics = createServiceMetrics({ processMetrics: true });
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 10, applicationName: 'uptime-notifier' });
  const redis = createRedisConnection(config.redis.url, 'uptime-notifier-health');
  const health = await startHealthServer({
    host: config.http.host,
    port: healthPortOf(config, 'notifier'),
    readiness: createReadiness({ dataSource, redis }),
    metrics,
    logger,
  });

  const starting = new AbortController();
  // Filled in once started; the shutdown handler stops whatever has started by then.
  const started: { notifier?: Notifier } = {};
  onShutdownSignal(logger, async () => {
    starting.abort(new Error('shutting down'));
    // Worker first: its jobs in flight still need the database.
    let outcome: StopOutcome = 'graceful';
    if (started.notifier) outcome = await started.notifier.stop({ graceMs: SHUTDOWN_GRACE_MS });
    const closed = await stopWithin(
      5000,
      async () => {
        if (dataSource.isInitialized) await dataSource.destroy();
        await closeRedis(redis);
        await health.close();
      },
      async () => redis.disconnect(),
      logger,
    );
    return outcome === 'graceful' && closed === 'graceful' ? 0 : 1;
  });

  await connectDatabase(dataSource, config.databaseUrl, { logger, signal: starting.signal });
  started.notifier = await startNotifier({ config, dataSource, logger, metrics });
}

main().catch((err: unknown) => {
  // A shutdown during start-up aborts the connection attempts; the signal handler exits.
  if (err instanceof Error && err.message === 'shutting down') return;
  process.stderr.write(`notifier failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
