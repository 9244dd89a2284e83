import type { Server } from 'node:http';
import type { Config } from '@uptime/config';
import type { DataSource } from '@uptime/db';
import type { Logger } from '@uptime/logger';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { createApp } from './app';
import { startScheduleReconciler } from './schedule-reconciler';

export interface RunningApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the API on an open database: listens, manages schedules, reconciles them every minute. */
export async function startApi({ config, dataSource, logger }: { config: Config; dataSource: DataSource; logger: Logger }): Promise<RunningApi> {
  const redis = createRedisConnection(config.redis.url, 'uptime-api');
  const scheduler = new MonitorScheduler(redis, config.redis.queuePrefix);
  const app = createApp({ config, dataSource, redis, scheduler, logger });
  const reconciler = startScheduleReconciler({ ds: dataSource, scheduler, redis, logger });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.http.port, config.http.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const url = `http://${config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host}:${port}`;
  logger.info({ url }, 'api listening');
  return {
    server,
    url,
    close: async () => {
      reconciler.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await scheduler.close();
      await redis.quit();
    },
  };
}
