import { createDataSource, type DataSource } from '@uptime/db';
import IORedis from 'ioredis';

/** A data source on this run's database (already migrated by global setup). */
export async function openTestDatabase(): Promise<DataSource> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run tests through jest (global setup)');
  const ds = createDataSource(url, { poolSize: 5, applicationName: 'uptime-test' });
  await ds.initialize();
  return ds;
}

/** Empties every table, keeping the schema. */
export async function resetDatabase(ds: DataSource): Promise<void> {
  const rows: { tablename: string }[] = await ds.query(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
  );
  if (rows.length === 0) return;
  await ds.query(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
}

/** Deletes every Redis key of this run's queue prefix. */
export async function resetRedis(prefix = process.env.QUEUE_PREFIX): Promise<void> {
  if (!prefix) throw new Error('QUEUE_PREFIX is not set');
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
