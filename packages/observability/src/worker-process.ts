import { loadConfigOrExit, type Config } from '@uptime/config';
import { createDataSource, type DataSource } from '@uptime/db';
import { createLogger, type Logger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import { connectDatabase } from './connect-database';
import { healthPortOf, startHealthServer } from './health-server';
import { createServiceMetrics, type ServiceMetrics } from './metrics';
import { createReadiness } from './readiness';
import { closeRedis, onShutdownSignal, SHUTDOWN_GRACE_MS, stopWithin, type StopOutcome } from './shutdown';

/** What a queue-consuming service started inside `runWorkerProcess` must offer. */
export interface StoppableService {
  stop(options: { graceMs: number }): Promise<StopOutcome>;
}

export interface WorkerProcessOptions {
  service: 'check-worker' | 'notifier';
  start(deps: { config: Config; dataSource: DataSource; logger: Logger; metrics: ServiceMetrics }): Promise<StoppableService>;
}

const SHUTTING_DOWN = 'shutting down';

/**
 * The standalone process of a queue consumer (check-worker, notifier). Its health/metrics listener
 * (HEALTH_PORT) comes up first and answers /readyz 503 until Postgres and Redis answer; the
 * database is retried, never a reason to exit. SIGTERM: stop taking jobs, finish the work in
 * flight within 30 s, close pools, exit 0 (1 when work had to be cut short).
 */
export async function runWorkerProcess({ service, start }: WorkerProcessOptions): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, service, format: config.logFormat });
  const metrics = createServiceMetrics({ processMetrics: true });
  const dataSource = createDataSource(config.databaseUrl, { poolSize: 10, applicationName: `uptime-${service}` });
  const redis = createRedisConnection(config.redis.url, `uptime-${service}-health`);
  const health = await startHealthServer({
    host: config.http.host,
    port: healthPortOf(config, service),
    readiness: createReadiness({ dataSource, redis }),
    metrics,
    logger,
  });

  const starting = new AbortController();
  // Filled in once started; the shutdown handler stops whatever has started by then.
  const started: { service?: StoppableService } = {};
  onShutdownSignal(logger, async () => {
    starting.abort(new Error(SHUTTING_DOWN));
    let outcome: StopOutcome = 'graceful';
    // The service first: its work in flight still needs the database.
    if (started.service) outcome = await started.service.stop({ graceMs: SHUTDOWN_GRACE_MS });
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

  try {
    await connectDatabase(dataSource, config.databaseUrl, { logger, signal: starting.signal });
    started.service = await start({ config, dataSource, logger, metrics });
  } catch (err) {
    // A shutdown during start-up aborts the connection attempts; the signal handler exits.
    if (err instanceof Error && err.message === SHUTTING_DOWN) return;
    process.stderr.write(`${service} failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  }
}
