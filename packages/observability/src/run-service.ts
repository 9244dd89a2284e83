import { loadConfigOrExit, type Config } from '@uptime/config';
import { createDataSource, SecretsKeyError, type DataSource } from '@uptime/db';
import { createLogger, type Logger } from '@uptime/logger';
import { createRedisConnection } from '@uptime/queues';
import { connectDatabase } from './connect-database';
import { healthPortOf, startHealthServer, type DEFAULT_HEALTH_PORTS } from './health-server';
import { createServiceMetrics, type ServiceMetrics } from './metrics';
import { createReadiness, type ReadinessDetails } from './readiness';
import { closeRedis, onShutdownSignal, SHUTDOWN_GRACE_MS, stopWithin, type StopOutcome } from './shutdown';

/** What a service's `start` receives from `runService`. */
export interface ServiceContext {
  config: Config;
  logger: Logger;
  /** The process's one registry (`/metrics`). */
  metrics: ServiceMetrics;
  /** Owned by `runService`, which closes it last; opened and migrated in the background. */
  dataSource: DataSource;
  /** Resolves once `dataSource` is open and migrated (retried meanwhile); rejects only when a shutdown aborts the start. */
  databaseReady: Promise<void>;
  /** Facts the service states for `/readyz` (a check-worker's ICMP access); absent without a health listener. */
  readiness?: ReadinessDetails;
}

/** What a service started inside `runService` offers. */
export interface StoppableService {
  /** Stops taking work and finishes what is in flight within `graceMs`, else cuts it short ('forced'). */
  stop(options: { graceMs: number }): Promise<StopOutcome>;
  /** Settles when the service has started in full (the all-in-one's workers wait for the database); a rejection is a failed start. */
  ready?: Promise<void>;
}

export interface RunServiceOptions {
  /** The process's name, in its logs and in "… failed to start". */
  service: string;
  /** The pool of `dataSource`: migrations and whatever the service does with it. */
  pool: { size: number; applicationName: string };
  /**
   * Serve /healthz, /readyz and /metrics on a listener of their own, started before anything
   * else, at HEALTH_HOST (127.0.0.1 by default) and HEALTH_PORT, else this entry of
   * DEFAULT_HEALTH_PORTS. Every process has one: it is where Prometheus scrapes.
   */
  healthListener?: keyof typeof DEFAULT_HEALTH_PORTS;
  /**
   * Provides what the configuration points at before anything connects (the all-in-one starts
   * a local Postgres and Redis); `release` runs last, once everything else has stopped.
   */
  prepare?(config: Config, logger: Logger): Promise<{ config: Config; release(): Promise<void> }>;
  start(context: ServiceContext): Promise<StoppableService>;
  /** The start-up error in words; by default its stack. */
  describeFailure?(err: unknown): string;
}

const SHUTTING_DOWN = 'shutting down';
/** A SecretsKeyError is one sentence saying what to set (docs/channels.md): its stack would bury it. */
const describeError = (err: unknown): string => {
  if (err instanceof SecretsKeyError) return err.message;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
};

/** A service that has a graceful `close()` and a quick `force()` (an HTTP server: drop the connections). */
export function stoppable(logger: Logger, close: () => Promise<void>, force: () => void | Promise<void>): StoppableService {
  return { stop: ({ graceMs }) => stopWithin(graceMs, close, async () => force(), logger) };
}

/**
 * The process lifecycle every entry point shares (api, check-worker, notifier, all-in-one): load
 * the config or exit; open the metrics, the pool and the health listener; connect
 * and migrate the database in the background, retried, never a reason to exit; start the
 * service. SIGTERM or SIGINT: stop the service within 30 s, close the pools within 5 s, release
 * what `prepare` provided, exit 0 (1 when work had to be cut short). A failed start prints one
 * line on stderr and exits 1.
 */
export async function runService(options: RunServiceOptions): Promise<void> {
  const configured = loadConfigOrExit();
  const logger = createLogger({ level: configured.logLevel, service: options.service, format: configured.logFormat });
  const starting = new AbortController();
  let release = async (): Promise<void> => undefined;
  let resources: ProcessResources | undefined;
  try {
    const prepared = await options.prepare?.(configured, logger);
    if (prepared) release = prepared.release;
    const config = prepared?.config ?? configured;
    const opened = await openResources(options, config, logger);
    resources = opened;
    // Filled in once started; the shutdown handler stops whatever has started by then.
    const started: { service?: StoppableService } = {};
    onShutdownSignal(logger, async () => {
      starting.abort(new Error(SHUTTING_DOWN));
      // The service first: its work in flight still needs the database.
      const outcome = started.service ? await started.service.stop({ graceMs: SHUTDOWN_GRACE_MS }) : 'graceful';
      const closed = await opened.close();
      // Only now what `prepare` started: everything above may still write to it.
      await release();
      return outcome === 'graceful' && closed === 'graceful' ? 0 : 1;
    });
    const databaseReady = connectDatabase(opened.dataSource, config.databaseUrl, { logger, signal: starting.signal });
    // Whoever waits for it handles its rejection (a shutdown during start-up); nobody else must.
    databaseReady.catch(() => undefined);
    started.service = await options.start({ config, logger, metrics: opened.metrics, dataSource: opened.dataSource, databaseReady, readiness: opened.readiness });
    await started.service.ready;
  } catch (err) {
    // A shutdown during start-up aborts the connection attempts; the signal handler exits.
    if (starting.signal.aborted) return;
    starting.abort(new Error('start-up failed'));
    process.stderr.write(`${options.service} failed to start: ${(options.describeFailure ?? describeError)(err)}\n`);
    // The pool and the health listener's Redis connection first: once `release` has stopped a
    // Redis that `prepare` started, that connection would retry it and print its errors.
    await resources?.close().catch(() => undefined);
    await release().catch(() => undefined);
    process.exit(1);
  }
}

/**
 * `runService()` for a standalone queue consumer (check-worker, notifier; any number may run side
 * by side): its health listener, a pool of its own, and `start` once the database is migrated.
 */
export function runWorkerService(
  service: keyof typeof DEFAULT_HEALTH_PORTS,
  start: (context: ServiceContext) => Promise<StoppableService>,
): Promise<void> {
  return runService({
    service,
    pool: { size: 10, applicationName: `uptime-${service}` },
    healthListener: service,
    start: async (context) => {
      await context.databaseReady;
      return start(context);
    },
  });
}

interface ProcessResources {
  metrics: ServiceMetrics;
  readiness?: ReadinessDetails;
  dataSource: DataSource;
  /** Closes the pool and the health listener, within 5 s: a dead Postgres must not hold the exit. */
  close(): Promise<StopOutcome>;
}

async function openResources(options: RunServiceOptions, config: Config, logger: Logger): Promise<ProcessResources> {
  const metrics = createServiceMetrics({ processMetrics: true });
  const dataSource = createDataSource(config.databaseUrl, { poolSize: options.pool.size, applicationName: options.pool.applicationName });
  let health: { redis: ReturnType<typeof createRedisConnection>; readiness: ReadinessDetails; close(): Promise<void> } | undefined;
  if (options.healthListener) {
    // Up before the database: /readyz answers 503 until Postgres and Redis answer.
    const redis = createRedisConnection(config.redis.url, `uptime-${options.service}-health`);
    // /readyz reports Redis' state; its connection errors are not log lines of their own.
    redis.on('error', () => undefined);
    const readiness = createReadiness({ dataSource, redis });
    const server = await startHealthServer({
      host: config.healthHost,
      port: healthPortOf(config, options.healthListener),
      readiness,
      metrics,
      logger,
    });
    health = { redis, readiness, close: () => server.close() };
  }
  return {
    metrics,
    readiness: health?.readiness,
    dataSource,
    close: () =>
      stopWithin(
        5000,
        async () => {
          if (dataSource.isInitialized) await dataSource.destroy();
          if (health) {
            await closeRedis(health.redis);
            await health.close();
          }
        },
        async () => health?.redis.disconnect(),
        logger,
      ),
  };
}
