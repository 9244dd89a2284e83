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
import { startCheckWorker, type RunningCheckWorker } from './check-worker';

/**
 * The standalone check-worker process. Its health/metrics listener (HEALTH_PORT) comes up first
 * and answers /readyz 503 until Postgres and Redis answer; the database is retried, never a
 * reason to exit. SIGTERM: stop taking jobs, finish the checks in flight within 30 s (else put
 * them back in the queue), close pools, exit 0 (1 when work had to be cut short).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service: 'check-worker' });
  const metrics = createServiceMetrics({ processMetrics: true });
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 10, applicationName: 'uptime-check-worker' });
  const redis = createRedisConnection(config.redis.url, 'uptime-check-worker-health');
  const health = await startHealthServer({
    host: config.http.host,
    port: healthPortOf(config, 'check-worker'),
    readiness: createReadiness({ dataSource, redis }),
    metrics,
    logger,
  });

  const starting = new AbortController();
  // Filled in once started; the shutdown handler stops whatever has started by then.
  const started: { running?: RunningCheckWorker } = {};
  onShutdownSignal(logger, async () => {
    starting.abort(new Error('shutting down'));
    let outcome: StopOutcome = 'graceful';
    if (started.running) outcome = await started.running.stop({ graceMs: SHUTDOWN_GRACE_MS });
    // Connections and pools get a short bound of their own: a dead Postgres must not hold the exit.
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
  started.running = await startCheckWorker({ config, dataSource, logger, metrics });
}

main().catch((err: unknown) => {
  // A shutdown during start-up aborts the connection attempts; the signal handler exits.
  if (err instanceof Error && err.message === 'shutting down') return;
  process.stderr.write(`check-worker failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
