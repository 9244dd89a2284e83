import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import type { Redis } from 'ioredis';
// Relative imports: the root package depends on no service; the benches run their code in-process.
import { createApp } from '../services/api/src';
import { loadConfig, type Config } from '../packages/config/src';
import { openDatabase, type DataSource } from '@uptime/db';
import { createLogger } from '../packages/logger/src';
import { createRedisConnection, MonitorScheduler } from '../packages/queues/src';

/** A database and queue prefix of a bench's own, and the api app serving them in this process. */
export interface BenchEnvironment {
  config: Config;
  ds: DataSource;
  redis: Redis;
  /** Starts the app on `port` (0: any) and answers its origin, `http://127.0.0.1:PORT`. */
  listen(port?: number): Promise<string>;
  /** Stops the app and drops the database and Redis keys, unless `keep` (then says where it is). */
  close(keep: boolean): Promise<void>;
}

export async function openBenchEnvironment(name: string, env: Record<string, string> = {}): Promise<BenchEnvironment> {
  const dbName = `uptime_bench_${name}_${Date.now().toString(36)}`;
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${dbName}`;
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: dbName,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_HOUR: '0',
    ...env,
  });
  const ds = await openDatabase(config.databaseUrl, { poolSize: 10, applicationName: `bench-${name}` });
  const redis = createRedisConnection(config.redis.url, `bench-${name}`);
  const scheduler = new MonitorScheduler(redis, dbName);
  let server: Server | undefined;
  return {
    config,
    ds,
    redis,
    listen: async (port = 0) => {
      const app = createApp({ config, dataSource: ds, redis, scheduler, logger: createLogger({ level: 'silent', service: 'bench' }) });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(port, '127.0.0.1', () => resolve(s));
      });
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: async (keep) => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server?.closeAllConnections();
      for (const key of await redis.keys(`${dbName}*`)) await redis.del(key);
      await scheduler.close();
      await redis.quit();
      await ds.destroy();
      if (keep) {
        process.stderr.write(`[bench] kept database ${url.toString()}\n`);
        return;
      }
      const admin = new Client({ connectionString: new URL('/postgres', url).toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}"`);
      await admin.end();
    },
  };
}
