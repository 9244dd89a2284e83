import type { Server } from 'node:http';
import type { Config } from '@uptime/config';
import { createDataSource, type DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { retryUntilSuccess, type ServiceMetrics } from '@uptime/observability';
import { createRedisConnection, createRequestRedisConnection, MonitorScheduler } from '@uptime/queues';
import { createApp } from './app';
import { createApiServer } from './http/server-limits';
import { startScheduleReconciler } from './schedule-reconciler';
import { startMaintenanceJob } from './maintenance/maintenance-job';

export interface ApiDeps {
  config: Config;
  /**
   * Migrations and background work (schedule reconciler, maintenance); may still be connecting.
   * Requests have a pool of their own, with deadlines (DEPENDENCY_TIMEOUT_MS), opened once this
   * one is migrated: until then every request but /healthz, /readyz and /metrics is a 503.
   */
  dataSource: DataSource;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** Resolves once `dataSource` is open and migrated; the schedule reconciler starts then. Default: open already. */
  databaseReady?: Promise<void>;
}

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the API: listens at once (so /healthz answers while the database is still connecting),
 * manages schedules, and once the database is open reconciles them every minute.
 */
export async function startApi({ config, dataSource, logger, metrics, databaseReady = Promise.resolve() }: ApiDeps): Promise<RunningApi> {
  const redis = createRedisConnection(config.redis.url, 'uptime-api');
  const scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
  // The request path fails fast rather than waits on Postgres or Redis (docs/reliability.md).
  const requestRedis = createRequestRedisConnection(config.redis.url, 'uptime-api-requests', config.dependencyTimeoutMs);
  const requestScheduler = new MonitorScheduler(requestRedis, config.redis.queuePrefix);
  // While Redis is away its requests answer 503 on their own; the queue's own report is noise.
  requestScheduler.queue.on('error', (err) => logger.debug({ error: err.message }, 'request queue connection error'));
  scheduler.queue.on('error', (err) => logger.warn({ error: err.message }, 'queue connection error'));
  const requestDataSource = createDataSource(config.databaseUrl, { poolSize: 20, applicationName: 'uptime-api', timeoutMs: config.dependencyTimeoutMs });
  const opening = new AbortController();
  const requestsReady = databaseReady.then(() =>
    retryUntilSuccess('request database pool', async () => void (await requestDataSource.initialize()), {
      logger,
      signal: opening.signal,
      firstDelayMs: 250,
      maxDelayMs: 2000,
    }),
  );
  const app = createApp({ config, dataSource: requestDataSource, redis: requestRedis, scheduler: requestScheduler, logger, metrics, started: requestsReady });
  let isClosed = false;
  let reconciler: { stop(): void } | undefined;
  let maintenance: { stop(): void } | undefined;
  // A start-up aborted by a shutdown rejects databaseReady: then there is nothing to reconcile.
  void databaseReady.then(
    () => {
      if (isClosed) return;
      reconciler = startScheduleReconciler({ ds: dataSource, scheduler, redis, logger });
      // Hourly, one instance at a time: result partitions created ahead and compacted, old raw
      // results and fine rollups gone (docs/statistics.md, docs/capacity.md).
      maintenance = startMaintenanceJob({
        ds: dataSource,
        redis,
        prefix: config.redis.queuePrefix,
        resultRetentionDays: config.resultRetentionDays,
        logger,
      });
    },
    () => undefined,
  );
  requestsReady.catch(() => undefined);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createApiServer(app, config.httpTimeouts);
    s.once('error', reject);
    s.listen(config.http.port, config.http.host, () => resolve(s));
  }).catch(async (err: unknown) => {
    // Nothing started (EADDRINUSE and the like): let go of Redis, so the caller can stop it
    // without errors from our clients.
    isClosed = true;
    opening.abort(new Error('not listening'));
    // The database may already be open and the background jobs running: stop them before their connections go.
    reconciler?.stop();
    maintenance?.stop();
    await Promise.all([scheduler.close(), requestScheduler.close()]).catch(() => undefined);
    await redis.quit().catch(() => undefined);
    requestRedis.disconnect();
    if (requestDataSource.isInitialized) await requestDataSource.destroy().catch(() => undefined);
    throw err;
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const url = `http://${config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host}:${port}`;
  logger.info({ url }, 'api listening');
  return {
    server,
    url,
    close: async () => {
      isClosed = true;
      opening.abort(new Error('shutting down'));
      reconciler?.stop();
      maintenance?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([scheduler.close(), requestScheduler.close()]);
      await redis.quit();
      requestRedis.disconnect();
      if (requestDataSource.isInitialized) await requestDataSource.destroy();
    },
  };
}
