import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@uptime/config';
import { generateApiToken, hashApiToken, openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { resetRedis } from '@uptime/testing';
// Relative import, as bench/hot-queries: the root package depends on no service; this runs its code.
import { createApp } from '../services/api/src/app';
import { dropDatabase, scratchDatabaseUrl } from './hot-queries/harness';
import { benchServiceEnv } from './service-env';

/**
 * pnpm tsx bench/create-burst.ts [--monitors 3000] [--concurrency 20]
 *
 * How fast one owner's monitors are created through the API by many requests at once: the real
 * app in this process on a fresh scratch database (migrated by this tree) and a prefix of its
 * own in Redis, no check-workers. Prints the wall time, creates/s and each request's latency
 * p50 / p99, then drops the database and the Redis keys. Indicative only on a shared machine.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 3000);
const CONCURRENCY = Number(args.get('concurrency') ?? 20);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const quantile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const databaseUrl = scratchDatabaseUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const prefix = new URL(databaseUrl).pathname.slice(1);
  const ds = await openDatabase(databaseUrl, { poolSize: 10, applicationName: 'bench-create' });
  const redis = createRedisConnection(REDIS_URL, 'bench-create');
  const scheduler = new MonitorScheduler(redis, prefix);
  try {
    const token = generateApiToken();
    const [user] = (await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`)) as {
      id: number;
    }[];
    await ds.query(`INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'bench', $2)`, [user!.id, hashApiToken(token)]);
    const config = loadConfig({
      ...benchServiceEnv({ databaseUrl, redisUrl: REDIS_URL, prefix }),
      MIN_CHECK_INTERVAL_SECONDS: '1',
      ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'silent',
    });
    const app = createApp({ config, dataSource: ds, redis, scheduler, logger: createLogger({ level: 'silent', service: 'bench-create' }) });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const latencies: number[] = [];
    let next = 0;
    let unavailable = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < MONITORS) {
          const i = next++;
          const t = performance.now();
          // The app's dependency gate answers 503 while its last look at Redis timed out (seen on
          // the loaded shared machine, before and after the counter alike): retried, and counted.
          for (let attempt = 1; ; attempt += 1) {
            const res = await fetch(`${api}/monitors`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ name: `m${i}`, url: `http://127.0.0.1:9/${i}`, type: 'http', check_interval: 30, timeout: 10 }),
            });
            const body = await res.text();
            if (res.status === 201) break;
            if (res.status !== 503 || attempt === 10) throw new Error(`create answered ${res.status}: ${body.slice(0, 300)}`);
            unavailable += 1;
            await new Promise((r) => setTimeout(r, 100));
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    await new Promise<void>((r) => server.close(() => r()));
    const sorted = latencies.sort((a, b) => a - b);
    const [{ n }] = (await ds.query('SELECT count(*)::int AS n FROM monitors')) as [{ n: number }];
    process.stdout.write(
      `${MONITORS} monitors at concurrency ${CONCURRENCY}: ${seconds.toFixed(1)} s, ${(MONITORS / seconds).toFixed(0)} creates/s, ` +
        `latency p50 ${quantile(sorted, 0.5).toFixed(1)} / p99 ${quantile(sorted, 0.99).toFixed(1)} ms; ${n} rows; ${unavailable} answers 503 retried\n`,
    );
  } finally {
    await scheduler.close();
    await ds.destroy();
    await redis.quit();
    await resetRedis(prefix);
    await dropDatabase(databaseUrl);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
