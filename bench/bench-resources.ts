import type { Redis } from 'ioredis';
import { Client } from 'pg';
import type { DataSource } from '@uptime/db';
import type { MonitorScheduler } from '../packages/queues/src';

/** What an in-process benchmark opened: its own database, Redis prefix, scheduler and connections. */
export interface BenchResources {
  /** The bench's own database. */
  databaseUrl: URL;
  prefix: string;
  ds: DataSource;
  redis: Redis;
  scheduler: MonitorScheduler;
}

/**
 * Removes the bench's Redis keys, closes its connections and drops its database, unless `keep`
 * (then it says where the database is).
 */
export async function releaseBenchResources({ databaseUrl, prefix, ds, redis, scheduler }: BenchResources, keep: boolean, log: (line: string) => void): Promise<void> {
  for (const key of await redis.keys(`${prefix}*`)) await redis.del(key);
  await scheduler.close();
  await redis.quit();
  await ds.destroy();
  if (keep) {
    log(`kept database ${databaseUrl.toString()}`);
    return;
  }
  const admin = new Client({ connectionString: new URL('/postgres', databaseUrl).toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseUrl.pathname.slice(1)}"`);
  await admin.end();
}
