import type { Server } from 'node:http';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import type { ServiceMetrics } from '@uptime/observability';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { createApp } from './app';
import { startScheduleReconciler } from './schedule-reconciler';
import { startMaintenanceJob } from './maintenance/maintenance-job';

export interface ApiDeps {
  config: Config;
  /** May still be connecting: requests other than /healthz, /readyz and /metrics answer 503 until it is open. */
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
  const app = createApp({ config, dataSource, redis, scheduler, logger, metrics });
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
  const server = await new Promise<Server>((resolve, reject) => {
    // Express 5 calls back with the error too (EADDRINUSE): without this check the API would
    // go on "started" while listening nowhere.
    const s = app.listen(config.http.port, config.http.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  }).catch(async (err: unknown) => {
    // Nothing started: let go of Redis, so the caller can stop it without errors from our clients.
    isClosed = true;
    await scheduler.close().catch(() => undefined);
    await redis.quit().catch(() => undefined);
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
      reconciler?.stop();
      maintenance?.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await scheduler.close();
      await redis.quit();
    },
  };
}
