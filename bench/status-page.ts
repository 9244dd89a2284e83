import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
// Relative imports: the root package depends on no service; the bench runs their code in-process.
import { createApp } from '../services/api/src';
import { readPublicStatusPage } from '../services/api/src/status-pages/public-status';
import { renderStatusPage } from '../services/api/src/status-pages/status-page.html';
import { loadConfig } from '../packages/config/src';
import { ApiToken, generateApiToken, hashApiToken, Monitor, openDatabase, User } from '@uptime/db';
import { createLogger } from '../packages/logger/src';
import { createRedisConnection, MonitorScheduler } from '../packages/queues/src';
import { releaseBenchResources } from './bench-resources';
import { quantile } from './capacity/percentiles';
import { runClosedLoop, type LoadResult } from './status-page/closed-loop';
import { seedRollups } from './status-page/seed-status-page';

/**
 * pnpm bench:status-page [-- --monitors 50 --seconds 10 --concurrency 32 --keep 1]
 * One status page of 50 monitors with 90 days of rollups, in a database and Redis prefix of its
 * own (so it can run beside `pnpm bench:capacity`). The api app serves it in this process; a
 * worker thread drives it with `concurrency` keep-alive connections for `seconds` per case:
 * the HTML page, the public JSON and a status badge through the cache, then the HTML and the
 * JSON recomputed on every request (what each request would cost without the cache). Counts the
 * Postgres queries of each cached run to give query sets per cache period. Prints a table and
 * one JSON line (docs/status-pages.md). Drops its database and Redis keys at the end.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const MONITORS = Number(args.get('monitors') ?? 50);
const SECONDS = Number(args.get('seconds') ?? 10);
const CONCURRENCY = Number(args.get('concurrency') ?? 32);
const CACHE_SECONDS = 30;

const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 100) / 100);
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

interface CaseFigures {
  case: string;
  requestsPerSecond: number;
  p50: number | null;
  p99: number | null;
  statuses: Record<string, number>;
  postgresQueries?: number;
  querySetsPerCachePeriod?: number;
  /** The dependency gate's `SELECT 1`s during the run, counted apart from the page's queries. */
  readinessProbes?: number;
}

function figures(name: string, r: LoadResult): CaseFigures {
  return { case: name, requestsPerSecond: Math.round(r.requests / r.seconds), p50: round(quantile(r.latencies, 0.5)), p99: round(quantile(r.latencies, 0.99)), statuses: r.statuses };
}

async function main(): Promise<void> {
  const runId = Date.now().toString(36);
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/uptime_bench_status_${runId}`;
  const prefix = `uptime_bench_status_${runId}`;
  const config = loadConfig({
    DATABASE_URL: base.toString(),
    REDIS_URL: process.env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_HOUR: '0',
    // The per-IP limit stays on (its Redis round trip is part of every answer) but never trips: the load comes from one IP.
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000000',
    PUBLIC_CACHE_SECONDS: String(CACHE_SECONDS),
  });
  const ds = await openDatabase(config.databaseUrl, { poolSize: 10, applicationName: 'bench-status-page' });
  const redis = createRedisConnection(config.redis.url, 'bench-status-page');
  const scheduler = new MonitorScheduler(redis, prefix);
  const servers: Server[] = [];
  const listen = (app: express.Express): Promise<string> =>
    new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`));
      servers.push(s);
    });
  try {
    const user = await ds.getRepository(User).save({ email: `bench-${runId}@example.test`, name: 'Bench', role: 'user' });
    const token = generateApiToken();
    await ds.getRepository(ApiToken).save({ userId: user.id, name: 'bench', tokenHash: hashApiToken(token) });
    const monitors = await ds.getRepository(Monitor).save(
      Array.from({ length: MONITORS }, (_v, i) => ({ ownerId: user.id, name: `Service ${i + 1}`, url: `https://s${i}.example.test/`, timeout: 30, checkInterval: 60, status: 'online' as const })),
    );
    const ids = monitors.map((m) => m.id);
    await seedRollups(ds, ids, new Date());
    await ds.query('VACUUM ANALYZE');

    const app = createApp({ config, dataSource: ds, redis, scheduler, logger: createLogger({ level: 'silent', service: 'bench' }) });
    const origin = await listen(app);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const page = await fetch(`${origin}/api/v1/status-pages`, { method: 'POST', headers: auth, body: JSON.stringify({ slug: 'bench', title: 'Bench', monitor_ids: ids.slice(0, 100) }) });
    if (page.status !== 201) throw new Error(`creating the page answered ${page.status}: ${await page.text()}`);
    const badge = (await (await fetch(`${origin}/api/v1/monitors/${ids[0]}/badge`, { method: 'POST', headers: auth })).json()) as { data: { status_url: string } };
    const htmlBytes = (await (await fetch(`${origin}/status/bench`)).arrayBuffer()).byteLength;
    const gzipBytes = Number((await fetch(`${origin}/status/bench`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })).headers.get('content-length'));
    const jsonBytes = (await (await fetch(`${origin}/api/v1/public/status-pages/bench`)).arrayBuffer()).byteLength;
    const jsonGzipBytes = Number((await fetch(`${origin}/api/v1/public/status-pages/bench`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } })).headers.get('content-length'));

    // Every query of the app goes through ds.query (the public reads are plain SQL): count them,
    // except the readiness probe's `SELECT 1`, which the API's dependency gate repeats every 250 ms
    // while requests come (services/api/src/http/dependency-gate.ts) whatever they ask for.
    let queries = 0;
    let readinessProbes = 0;
    const query = ds.query.bind(ds);
    ds.query = ((...a: Parameters<typeof ds.query>) => {
      if (a[0] === 'SELECT 1') readinessProbes += 1;
      else queries += 1;
      return query(...a);
    }) as typeof ds.query;

    // Without the cache: each request does what a cache fill does (the same query set and rendering).
    const source = { ds, redis, prefix };
    const uncached = express();
    uncached.get('/status/:slug', async (req, res) => void res.type('text/html').send(renderStatusPage((await readPublicStatusPage(source, req.params.slug, config.http.publicUrl))!)));
    uncached.get('/json/:slug', async (req, res) => void res.json({ data: await readPublicStatusPage(source, req.params.slug, config.http.publicUrl) }));
    const bare = await listen(uncached);

    const results: CaseFigures[] = [];
    // As a browser asks: it takes gzip (the HTML is served compressed from the cache then).
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const cached = async (name: string, url: string): Promise<void> => {
      await runClosedLoop(url, { concurrency: CONCURRENCY, seconds: 1, headers });
      queries = 0;
      readinessProbes = 0;
      const r = await runClosedLoop(url, { concurrency: CONCURRENCY, seconds: SECONDS, headers });
      // A query set is what one fill reads; there is at most one fill per key and cache period.
      const f = figures(name, r);
      results.push({ ...f, postgresQueries: queries, readinessProbes, querySetsPerCachePeriod: round(queries / QUERIES_PER_SET / Math.max(1, r.seconds / CACHE_SECONDS)) ?? 0 });
    };
    // Measured on the second fill: the first also computes the hour's uptime bases, cached apart for the hour.
    const fill = async (): Promise<number> => {
      await redis.del(`${prefix}:public:page:bench`);
      queries = 0;
      await (await fetch(`${origin}/api/v1/public/status-pages/bench`)).arrayBuffer();
      return queries;
    };
    await fill();
    const QUERIES_PER_SET = await fill();
    log(`a cache fill of the page is ${QUERIES_PER_SET} Postgres queries; the HTML page is ${htmlBytes} bytes, ${gzipBytes} gzipped; its JSON ${jsonBytes}, ${jsonGzipBytes} gzipped`);

    await cached('GET /status/{slug} (cached)', `${origin}/status/bench`);
    await cached('GET /api/v1/public/status-pages/{slug} (cached)', `${origin}/api/v1/public/status-pages/bench`);
    await cached('GET /badge/{token}/status.svg (cached)', `${origin}${new URL(badge.data.status_url).pathname}`);
    for (const [name, url] of [
      ['GET /status/{slug} (no cache)', `${bare}/status/bench`],
      ['GET public JSON (no cache)', `${bare}/json/bench`],
    ] as const) {
      await runClosedLoop(url, { concurrency: CONCURRENCY, seconds: 1, headers });
      results.push(figures(name, await runClosedLoop(url, { concurrency: CONCURRENCY, seconds: SECONDS, headers })));
    }

    for (const r of results) {
      const sets = r.querySetsPerCachePeriod === undefined ? '' : `  Postgres ${r.postgresQueries} queries = ${r.querySetsPerCachePeriod} sets per ${CACHE_SECONDS} s (+ ${r.readinessProbes ?? 0} readiness probes)`;
      console.log(`${r.case.padEnd(50)} ${String(r.requestsPerSecond).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${JSON.stringify(r.statuses)}${sets}`);
    }
    console.log(JSON.stringify({ monitors: MONITORS, seconds: SECONDS, concurrency: CONCURRENCY, cacheSeconds: CACHE_SECONDS, queriesPerSet: QUERIES_PER_SET, htmlBytes, gzipBytes, jsonBytes, jsonGzipBytes, results }));
  } finally {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    }
    await releaseBenchResources({ databaseUrl: base, prefix, ds, redis, scheduler }, args.has('keep'), log);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
