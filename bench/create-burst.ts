import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { loadConfig } from '@uptime/config';
import { generateApiToken, hashApiToken, openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { resetRedis } from '@uptime/testing';
// Relative import, as bench/hot-queries: the root package depends on no service; this runs its code.
import { createApp } from '../services/api/src/app';
import { dropDatabase, scratchDatabaseUrl } from './hot-queries/harness';
import { benchServiceEnv } from './service-env';
import { CreateCostMeter } from './create-cost';

/**
 * pnpm tsx bench/create-burst.ts [--monitors 3000] [--concurrency 20] [--batch 0] [--existing 0] [--warm-up 300] [--profile DIR]
 *
 * How fast one organization's monitors are created through the API by many requests at once:
 * the real app in this process on a fresh scratch database (migrated by this tree) and a prefix
 * of its own in Redis, no check-workers; the requests come from a process of their own
 * (bench/create-burst-client.ts). `--batch 0` sends one `POST /monitors` per monitor, `--batch n`
 * sends `POST /monitors/bulk/create` with n bodies a request. `--existing` monitors are in the
 * organization before (made by bulk creates of 100: what a create costs may grow with how many
 * there are), then `--warm-up` monitors are created as measured ones are, and not measured. Prints creates/s and latency (wall time: indicative only on a shared
 * machine) and what each create cost, which the machine's load does not change: CPU ms of this
 * process, of its Postgres backends and of the Redis server (the whole server: run one of the
 * bench's own, REDIS_URL, for a figure of its own), and statements, transactions and Redis
 * commands per create. `--profile DIR` writes this process's V8 CPU profile of the measured burst
 * and prints its costliest functions. Then drops the database and the Redis keys.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 3000);
const CONCURRENCY = Number(args.get('concurrency') ?? 20);
const BATCH = Number(args.get('batch') ?? 0);
const EXISTING = Number(args.get('existing') ?? 0);
const WARM_UP = Number(args.get('warm-up') ?? 300);
const PROFILE_DIR = args.get('profile');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const quantile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

interface ClientRun {
  seconds: number;
  latencies: number[];
  unavailable: number;
}

/** Runs the requests from a process of their own (its CPU is not this process's), this one serving meanwhile. */
async function sendCreates(
  api: string,
  token: string,
  first: number,
  count: number,
  batch = BATCH,
  concurrency = CONCURRENCY,
): Promise<ClientRun> {
  const client = path.join(__dirname, 'create-burst-client.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...process.execArgv, client, api, token, String(first), String(count), String(concurrency), String(batch)],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as ClientRun;
}

async function main(): Promise<void> {
  const databaseUrl = scratchDatabaseUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const prefix = new URL(databaseUrl).pathname.slice(1);
  const ds = await openDatabase(databaseUrl, { poolSize: 10, applicationName: 'bench-create' });
  const redis = createRedisConnection(REDIS_URL, 'bench-create');
  const scheduler = new MonitorScheduler(redis, prefix);
  const meter = new CreateCostMeter(ds, databaseUrl, redis);
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
    if (EXISTING > 0) await sendCreates(api, token, MONITORS + WARM_UP, EXISTING, 100, 2);
    if (WARM_UP > 0) await sendCreates(api, token, MONITORS, WARM_UP);
    await meter.start(PROFILE_DIR !== undefined);
    const run = await sendCreates(api, token, 0, MONITORS);
    const cost = await meter.stop(MONITORS);
    await new Promise<void>((r) => server.close(() => r()));
    const sorted = run.latencies.sort((a, b) => a - b);
    const [{ n }] = (await ds.query('SELECT count(*)::int AS n FROM monitors')) as [{ n: number }];
    const how = BATCH === 0 ? 'POST /monitors' : `bulk create of ${BATCH}`;
    process.stdout.write(
      `${MONITORS} monitors by ${how} at concurrency ${CONCURRENCY} (after ${EXISTING} existing and ${WARM_UP} unmeasured): ${run.seconds.toFixed(1)} s, ` +
        `${(MONITORS / run.seconds).toFixed(0)} creates/s, request latency p50 ${quantile(sorted, 0.5).toFixed(1)} / p99 ${quantile(sorted, 0.99).toFixed(1)} ms; ` +
        `${n} rows; ${run.unavailable} answers 503 retried\n${cost.text}\n`,
    );
    if (PROFILE_DIR && cost.profile) {
      mkdirSync(PROFILE_DIR, { recursive: true });
      writeFileSync(
        path.join(PROFILE_DIR, `create-burst-${BATCH === 0 ? 'single' : `bulk${BATCH}`}.cpuprofile`),
        JSON.stringify(cost.profile),
      );
    }
  } finally {
    await meter.close();
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
