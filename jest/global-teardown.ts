import { Client } from 'pg';
import IORedis from 'ioredis';

/** Drops every database of this run (its template, its workers', those its tests made) and its Redis keys. */
export default async function globalTeardown(): Promise<void> {
  const url = process.env.TEST_RUN_DATABASE_URL;
  const prefix = process.env.TEST_RUN_QUEUE_PREFIX;
  const run = url ? new URL(url).pathname.slice(1) : undefined;
  if (url && run?.startsWith('uptime_test_')) {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [run]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
    await client.end();
  }
  if (prefix?.startsWith('uptime_test_')) {
    const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
  }
}
