import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '@uptime/config';
import { openDatabase, type DataSource } from '@uptime/db';
import { createLogger } from '@uptime/logger';
import { createRedisConnection, MonitorScheduler } from '@uptime/queues';
import { resetRedis } from '@uptime/testing';
// Relative imports, as bench/hot-queries: the root package depends on no service; this runs their code.
import { recordCheckBatch, type CheckOutcome } from '../services/check-worker/src';
import { createApp } from '../services/api/src/app';
import { listMonitors } from '../services/api/src/monitors/monitors.service';
import { toMonitorResponse } from '../services/api/src/monitors/monitor.presenter';
import { uptimeByMonitor } from '../services/api/src/monitor-stats/uptime.repository';
import { dropDatabase, scratchDatabaseUrl } from './hot-queries/harness';
import { seedHotQueryData, seedSizeFor } from './hot-queries/seed';
import { benchServiceEnv } from './service-env';

/**
 * pnpm tsx bench/list-under-load.ts [--monitors 30000] [--seconds 60] [--rate 1000] [--database URL]
 *
 * Where the time of `GET /monitors?limit=25` goes while checks are being recorded. Seeds the
 * hot-queries data set (bench/hot-queries/seed.ts) in a scratch database (or reuses `--database`,
 * seeded earlier and kept with `--keep 1`), then records `--rate` checks/s of the big user's
 * monitors through the check-worker's own recordCheckBatch (two writers, a batch every 100 ms
 * each, as two check-workers at that rate), and meanwhile, every ~100 ms:
 * - times each part of the list as the route runs it, one after another: the page and total
 *   (listMonitors), uptime (uptimeByMonitor), presenting (toMonitorResponse) and serialising
 *   (JSON.stringify of the envelope); plus the organization-wide count(*) and its counter row
 *   on their own, so both can be compared whichever of them the list reads;
 * - times the whole request through the real app over HTTP (pages 1–20, as bench:capacity asks).
 * Prints p50 / p95 / p99 / max of each. A micro-benchmark on a shared machine: indicative only.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 30_000);
const SECONDS = Number(args.get('seconds') ?? 60);
const RATE = Number(args.get('rate') ?? 1000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function quantiles(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number): string => (s.length === 0 ? '-' : s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!.toFixed(2));
  return `p50 ${q(0.5)} / p95 ${q(0.95)} / p99 ${q(0.99)} / max ${q(1)} ms (n=${s.length})`;
}

async function timed<T>(into: number[], fn: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  const value = await fn();
  into.push(performance.now() - t);
  return value;
}

/** Records `rate` checks/s of `ids` in order, round after round, through `writers` loops of a batch every 100 ms. */
function startChecks(ds: DataSource, ids: number[], rate: number, writers: number): { stop: () => Promise<number> } {
  let running = true;
  let cursor = 0;
  let recorded = 0;
  const perBatch = Math.max(1, Math.round(rate / writers / 10));
  const loop = async (): Promise<void> => {
    while (running) {
      const started = performance.now();
      const outcomes: CheckOutcome[] = [];
      const now = Date.now();
      for (let i = 0; i < perBatch; i += 1) {
        const id = ids[cursor++ % ids.length]!;
        const scheduledAt = new Date(now - 50);
        outcomes.push({
          monitorId: id,
          configVersion: 1,
          scheduledAt,
          result: { ok: true, statusCode: 200, responseTime: 90 + (id % 40), error: null, checkedAt: new Date(now), attempts: 1 },
        });
      }
      outcomes.sort((a, b) => a.monitorId - b.monitorId);
      await recordCheckBatch(ds, outcomes);
      recorded += outcomes.length;
      await sleep(Math.max(0, 100 - (performance.now() - started)));
    }
  };
  const loops = Array.from({ length: writers }, () => loop());
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return recorded;
    },
  };
}

async function main(): Promise<void> {
  const keep = args.has('keep');
  const databaseUrl = args.get('database') || scratchDatabaseUrl(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const prefix = `bench_list_${Date.now().toString(36)}`;
  const log = (line: string): void => void process.stderr.write(`[list-under-load] ${line}\n`);
  const opened = performance.now();
  const ds = await openDatabase(databaseUrl, { poolSize: 10, applicationName: 'bench-list' });
  log(`opened and migrated in ${Math.round(performance.now() - opened)} ms`);
  const writerDs = await openDatabase(databaseUrl, { poolSize: 4, applicationName: 'bench-list-writer' });
  const redis = createRedisConnection(REDIS_URL, 'bench-list');
  try {
    let bigOrganizationId: number;
    let token: string;
    const [existing] = (await ds.query(
      `SELECT o.id FROM users u JOIN organizations o ON o.personal_user_id = u.id WHERE u.email = 'big@example.test'`,
    )) as { id: number }[];
    if (existing && args.has('token')) {
      bigOrganizationId = existing.id;
      token = args.get('token')!;
      log(`reusing ${databaseUrl}`);
    } else {
      const t = performance.now();
      const seeded = await seedHotQueryData(ds, seedSizeFor(MONITORS));
      bigOrganizationId = seeded.bigOrganizationId;
      token = seeded.bigToken;
      log(
        `seeded ${databaseUrl} in ${Math.round(performance.now() - t)} ms; with --keep 1, reuse it with --database ${databaseUrl} --token ${token}`,
      );
    }
    const ids = (
      (await ds.query(`SELECT id FROM monitors WHERE organization_id = $1 AND status <> 'paused' ORDER BY id`, [bigOrganizationId])) as { id: number }[]
    ).map((r) => r.id);
    const [{ counter }] = (await ds.query(`SELECT to_regclass('organization_monitor_counts') IS NOT NULL AS counter`)) as [{ counter: boolean }];

    const config = loadConfig({ ...benchServiceEnv({ databaseUrl, redisUrl: REDIS_URL, prefix }), LOG_LEVEL: 'silent' });
    const scheduler = new MonitorScheduler(redis, prefix);
    const app = createApp({ config, dataSource: ds, redis, scheduler, logger: createLogger({ level: 'silent', service: 'bench-list' }) });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    const auth = `Bearer ${token}`;

    const parts = {
      'list (page + total)': [] as number[],
      uptime: [] as number[],
      present: [] as number[],
      serialise: [] as number[],
      'route in all (the four above)': [] as number[],
      'page alone (SQL)': [] as number[],
      'organization count(*) alone': [] as number[],
      'organization counter rows alone': [] as number[],
      'uptime cache read alone (HMGET)': [] as number[],
      'HTTP GET /monitors?limit=25&page=1..20': [] as number[],
    };
    const uptime = { ds, redis, prefix };
    const samplePage = async (n: number): Promise<void> => {
      const page = { page: n, limit: 25, offset: (n - 1) * 25 };
      const t = performance.now();
      const { items, total } = await timed(parts['list (page + total)'], () => listMonitors(ds, bigOrganizationId, {}, page));
      const up = await timed(parts.uptime, () =>
        uptimeByMonitor(
          uptime,
          items.map((m) => m.id),
        ),
      );
      const data = await timed(parts.present, () => items.map((m) => toMonitorResponse(m, { publicUrl: 'http://localhost:3000' }, up.get(m.id))));
      await timed(parts.serialise, () => JSON.stringify({ data, pagination: { page: n, limit: 25, total }, meta: {} }));
      parts['route in all (the four above)'].push(performance.now() - t);
    };
    // Every page's uptime base is cached before the window, as in service (once an hour).
    for (let n = 1; n <= 20; n += 1) await samplePage(n);
    for (const list of Object.values(parts)) list.length = 0;

    log(`recording ${RATE} checks/s for ${SECONDS} s (organization counter table: ${counter ? 'yes' : 'no'})`);
    const checks = startChecks(writerDs, ids, RATE, 2);
    // The writers stop before the databases close, also when a sample fails: else their next
    // batch meets a closed pool and that error hides the sample's.
    let recorded = 0;
    const start = Date.now() + 3000;
    try {
      await sleep(3000);
      let sample = 0;
      while (Date.now() - start < SECONDS * 1000) {
        const n = 1 + (sample++ % Math.min(20, Math.ceil(ids.length / 25)));
        await samplePage(n);
        await timed(parts['page alone (SQL)'], () =>
          ds.query('SELECT * FROM monitors WHERE organization_id = $1 ORDER BY id OFFSET $2 LIMIT 25', [bigOrganizationId, (n - 1) * 25]),
        );
        await timed(parts['uptime cache read alone (HMGET)'], () =>
          redis.hmget(
            `${prefix}:uptime-base:${Math.floor(Date.now() / 3_600_000) * 3_600_000}`,
            ...ids.slice((n - 1) * 25, n * 25).map(String),
          ),
        );
        await timed(parts['organization count(*) alone'], () => ds.query('SELECT count(*)::int FROM monitors WHERE organization_id = $1', [bigOrganizationId]));
        if (counter)
          await timed(parts['organization counter rows alone'], () =>
            ds.query('SELECT coalesce(sum(monitors), 0)::int AS monitors FROM organization_monitor_counts WHERE organization_id = $1', [bigOrganizationId]),
          );
        await timed(parts['HTTP GET /monitors?limit=25&page=1..20'], async () => {
          const res = await fetch(`${api}/monitors?limit=25&page=${n}`, { headers: { authorization: auth } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`list answered ${res.status}`);
        });
        await sleep(100);
      }
    } finally {
      recorded = await checks.stop();
    }
    const seconds = (Date.now() - start) / 1000 + 3;
    await new Promise<void>((r) => server.close(() => r()));
    await scheduler.close();
    const [{ dead, live }] = (await ds.query(
      `SELECT n_dead_tup::int AS dead, n_live_tup::int AS live FROM pg_stat_user_tables WHERE relname = 'monitors'`,
    )) as [{ dead: number; live: number }];
    process.stdout.write(
      `${MONITORS} monitors, ${(recorded / seconds).toFixed(0)} checks/s recorded meanwhile; monitors: ${live} live, ${dead} dead tuples\n`,
    );
    for (const [name, samples] of Object.entries(parts))
      if (samples.length > 0) process.stdout.write(`${name.padEnd(40)} ${quantiles(samples)}\n`);
  } finally {
    await writerDs.destroy();
    await ds.destroy();
    await redis.quit();
    await resetRedis(prefix);
    // A database it seeded goes unless kept (`--keep 1`); one it was given stays.
    if (!args.has('database')) {
      if (keep) log(`database ${databaseUrl} kept`);
      else await dropDatabase(databaseUrl);
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
