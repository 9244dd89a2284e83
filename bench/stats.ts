import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { ApiToken, generateApiToken, hashApiToken, Monitor, User } from '@uptime/db';
import { openBenchEnvironment } from './bench-environment';
import { seedMainMonitor, seedOtherMonitors } from './stats/seed-stats';

/**
 * pnpm bench:stats [-- --requests 300 --others 1000 --days 90 --keep 1]
 * Seeds 90 days of one-minute results for one monitor plus 1,000 other monitors of the same user
 * in a database of its own, then times GET /monitors/{id}/stats?period=90d and GET /dashboard on
 * the app in this process (loopback HTTP, keep-alive). Prints a table and one JSON line
 * (docs/statistics.md). Drops its database and Redis keys at the end.
 */
const args = new Map(process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])));
const REQUESTS = Number(args.get('requests') ?? 300);
const OTHERS = Number(args.get('others') ?? 1000);
const DAYS = Number(args.get('days') ?? 90);
const WARMUP = 30;

const percentile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const round = (x: number): number => Math.round(x * 100) / 100;
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

async function time(url: string, auth: string, n: number): Promise<{ p50: number; p95: number; p99: number; max: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: auth } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50: round(percentile(samples, 0.5)), p95: round(percentile(samples, 0.95)), p99: round(percentile(samples, 0.99)), max: round(samples.at(-1)!) };
}

async function main(): Promise<void> {
  const runId = `${Date.now().toString(36)}`;
  const env = await openBenchEnvironment('stats');
  const { ds, redis } = env;
  const prefix = env.config.redis.queuePrefix;
  try {
    const now = new Date();
    const user = await ds.getRepository(User).save({ email: `bench-${runId}@example.test`, name: 'Bench', role: 'user' });
    const token = generateApiToken();
    await ds.getRepository(ApiToken).save({ userId: user.id, name: 'bench', tokenHash: hashApiToken(token) });
    const monitorRow = (name: string): Partial<Monitor> => ({ ownerId: user.id, name, url: `https://${name}.example.test/`, timeout: 30, checkInterval: 60, status: 'online' });
    const main = await ds.getRepository(Monitor).save(monitorRow('main'));
    const others = await ds.getRepository(Monitor).save(Array.from({ length: OTHERS }, (_v, i) => monitorRow(`other-${i}`)), { chunk: 500 });

    let t = performance.now();
    const results = await seedMainMonitor(ds, main.id, now, DAYS);
    log(`main monitor: ${results} results and their rollups in ${Math.round(performance.now() - t)} ms`);
    t = performance.now();
    await seedOtherMonitors(ds, others.map((m) => m.id), now, DAYS);
    log(`${OTHERS} other monitors: rollups in ${Math.round(performance.now() - t)} ms`);
    await ds.query('VACUUM ANALYZE');
    const [sizes] = await ds.query(
      `SELECT (SELECT count(*) FROM check_results)::int AS results, (SELECT count(*) FROM check_rollups_5m)::int AS r5m,
              (SELECT count(*) FROM check_rollups_1h)::int AS r1h, (SELECT count(*) FROM check_rollups_1d)::int AS r1d`,
    );

    const origin = `${await env.listen()}/api/v1`;
    const auth = `Bearer ${token}`;
    const statsUrl = `${origin}/monitors/${main.id}/stats?period=90d`;
    const dashboardUrl = `${origin}/dashboard`;

    // The first dashboard of an hour computes the settled part of every monitor's windows.
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      for (const key of await redis.keys(`${prefix}:uptime-base:*`)) await redis.del(key);
      const started = performance.now();
      await (await fetch(dashboardUrl, { headers: { authorization: auth } })).arrayBuffer();
      cold.push(round(performance.now() - started));
    }
    await time(statsUrl, auth, WARMUP);
    await time(dashboardUrl, auth, WARMUP);
    const stats = await time(statsUrl, auth, REQUESTS);
    const dashboard = await time(dashboardUrl, auth, REQUESTS);
    const list = await time(`${origin}/monitors?limit=100`, auth, REQUESTS);
    const sample = (await (await fetch(statsUrl, { headers: { authorization: auth } })).json()) as { data: { checks: unknown; uptime: unknown; response_times: unknown; incidents: unknown } };

    const rows: [string, string][] = [
      ['seeded', `${sizes.results} results; rollups 5m ${sizes.r5m}, 1h ${sizes.r1h}, 1d ${sizes.r1d}; ${OTHERS + 1} monitors of one user`],
      [`GET /monitors/{id}/stats?period=90d`, `p50 ${stats.p50} / p95 ${stats.p95} / p99 ${stats.p99} / max ${stats.max} ms`],
      ['GET /dashboard', `p50 ${dashboard.p50} / p95 ${dashboard.p95} / p99 ${dashboard.p99} / max ${dashboard.max} ms`],
      ['GET /dashboard, first of the hour', `${cold.join(' / ')} ms`],
      ['GET /monitors?limit=100', `p50 ${list.p50} / p95 ${list.p95} / p99 ${list.p99} / max ${list.max} ms`],
      ['stats sample', JSON.stringify({ checks: sample.data.checks, uptime: sample.data.uptime, response_times: sample.data.response_times, incidents: sample.data.incidents })],
    ];
    for (const [k, v] of rows) console.log(`${k.padEnd(40)} ${v}`);
    console.log(JSON.stringify({ requests: REQUESTS, monitors: OTHERS + 1, days: DAYS, seeded: sizes, stats90d: stats, dashboard, dashboardColdMs: cold, list100: list, targetP95Ms: 50, pass: stats.p95 < 50 && dashboard.p95 < 50 }));
  } finally {
    await env.close(args.has('keep'));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
