import { Client } from 'pg';
import IORedis from 'ioredis';

/** Drops this run's database, its template and its Redis keys. */
export default async function globalTeardown(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const prefix = process.env.QUEUE_PREFIX;
  if (url?.includes('/uptime_test_')) {
    const names = [new URL(url).pathname.slice(1), process.env.TEST_TEMPLATE_DATABASE].filter((n) => n?.startsWith('uptime_test_'));
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
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
