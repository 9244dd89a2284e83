import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import IORedis from 'ioredis';
import { startCheckWorker } from '@uptime/check-worker';
import { loadConfig } from '@uptime/config';
import { Monitor, openDatabase } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { MonitorScheduler } from '@uptime/queues';
import { TARGET_PATH, type TargetKind } from './capacity/counting-target';
import { dropRun } from './capacity/run-capacity';
import { ROOT } from './capacity/service-processes';
import { makeTlsMaterial } from './capacity/tls-material';

/**
 * node --expose-gc --import tsx bench/in-flight-memory.ts [--checks 2000] [--protocol https|http]
 * (pnpm bench:in-flight-memory). What one check in flight costs a check-worker in memory, for
 * CHECK_CONCURRENCY's bound: a check-worker in this process runs N checks against targets (in a
 * process of their own) that answer at once, warming every pool and module, then N against
 * targets that answer after 60 s. With all N held: the heap (JS and buffers) and RSS grown since, over
 * N, each after a full GC. A memory figure: valid on a busy machine (docs/capacity.md).
 */
/**
 * Long enough to hold every check at once, short of never: BullMQ applies a raised concurrency
 * when one of its running jobs ends, so the worker reaches N only as the first checks finish.
 */
const SLOW_MS = 60_000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function collect(): { heapMb: number; rssMb: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapMb: (m.heapUsed + m.external) / 2 ** 20, rssMb: m.rss / 2 ** 20 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { checks: { type: 'string', default: '2000' }, protocol: { type: 'string', default: 'https' } },
  });
  const n = Number(values.checks);
  const tls = values.protocol === 'https' ? makeTlsMaterial() : undefined;
  const targetProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/capacity/target-process.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TARGET_SLOW_MS: String(SLOW_MS),
      ...(tls ? { TARGET_TLS_KEY: tls.keyPath, TARGET_TLS_CERT: tls.certPath } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const targetUrl = await new Promise<string>((resolve) =>
    targetProcess.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  let openAtTarget = 0;
  let lastLine = '';
  targetProcess.stdout.on('data', (chunk: Buffer) => {
    lastLine = chunk.toString().trim().split('\n').at(-1) ?? '';
    const last = /open (\d+)\s*$/.exec(chunk.toString());
    if (last) openAtTarget = Number(last[1]);
  });
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const dbUrl = new URL(base);
  dbUrl.pathname = `/uptime_bench_${runId}`;
  const prefix = `uptime_bench_${runId}`;
  const ds = await openDatabase(dbUrl.toString(), { poolSize: 4 });
  const redis = new IORedis(redisUrl, { maxRetriesPerRequest: null });
  const scheduler = new MonitorScheduler(redis, prefix);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: dbUrl.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    ALLOW_PRIVATE_TARGETS: 'true',
    CHECK_CONCURRENCY: String(n),
    LOG_LEVEL: 'silent',
  });
  const worker = await startCheckWorker({ config, dataSource: ds, logger: createLogger({ level: 'silent', service: 'bench' }) });
  try {
    const [owner] = (await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`)) as {
      id: number;
    }[];
    const repo = ds.getRepository(Monitor);
    const monitors = await repo.save(
      Array.from({ length: n }, (_, i) =>
        repo.create({
          ownerId: owner.id,
          name: `m${i}`,
          url: `${targetUrl}/m/${i}`,
          type: 'http',
          method: 'GET',
          headers: {},
          expectedStatus: [],
          timeout: 120,
          checkInterval: 3600,
          // Node reads NODE_EXTRA_CA_CERTS only at start: this process cannot trust the certificate it
          // just made, so its checks skip verification (the handshake and connection are the same).
          verifySsl: false,
        }),
      ),
      { chunk: 500 },
    );
    const round = async (kind: TargetKind): Promise<void> => {
      for (let i = 0; i < n; i += 500) {
        await Promise.all(
          monitors.slice(i, i + 500).map((m, k) => scheduler.checkNow({ ...m, url: `${targetUrl}/${TARGET_PATH[kind]}/${i + k}` })),
        );
      }
    };
    await round('fast');
    await until(async () => Number((await ds.query('SELECT count(*) AS n FROM check_results'))[0].n) >= n, 'the warm-up checks');
    await sleep(2000);
    const before = collect();
    await round('slow');
    await until(
      async () => openAtTarget >= n,
      'every check to be held',
      () => `${openAtTarget} held; worker concurrency ${worker.worker.concurrency}; target ${lastLine}`,
    );
    await sleep(3000);
    const held = collect();
    const kb = (mb: number): number => Math.round(((mb * 1024) / n) * 10) / 10;
    const figures = {
      checks: n,
      protocol: values.protocol,
      heapKbPerCheck: kb(held.heapMb - before.heapMb),
      rssKbPerCheck: kb(held.rssMb - before.rssMb),
      before,
      held,
    };
    console.log(
      `${n} ${values.protocol} checks in flight: ${figures.heapKbPerCheck} KB of heap and ${figures.rssKbPerCheck} KB of RSS per check`,
    );
    console.log(JSON.stringify(figures));
  } finally {
    targetProcess.kill('SIGKILL');
    await worker.stop({ graceMs: 0 });
    await scheduler.close();
    await redis.quit();
    await ds.destroy();
    tls?.remove();
    await dropRun(base, dbUrl.toString(), redisUrl, prefix);
  }
}

async function until(done: () => Promise<boolean>, what: string, progress: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${progress()}`);
    await sleep(250);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
