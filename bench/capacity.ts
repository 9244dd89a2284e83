import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatProfileReport } from './capacity/profile-report';
import { runCapacity, type CapacityReport } from './capacity/run-capacity';

/**
 * pnpm bench:capacity --monitors 30000 --interval 30 [--workers 2] [--window 120] [--concurrency 200] [--profile <dir> [--profile-interval 1000]]
 * Prints a table and one JSON line (see docs/capacity.md). `--profile <dir>` adds where the time
 * went in the window: CPU profiles of each process, Redis commands, Postgres statements; the
 * section is printed after the table and written to <dir>/summary.json. `--profile-interval`: the CPU
 * sampling interval in µs; every sample costs the profiled processes CPU, fewer cost less.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      monitors: { type: 'string', default: '30000' },
      interval: { type: 'string', default: '30' },
      workers: { type: 'string', default: '0' },
      window: { type: 'string', default: '120' },
      concurrency: { type: 'string', default: '200' },
      'create-concurrency': { type: 'string', default: '32' },
      profile: { type: 'string' },
      'profile-interval': { type: 'string', default: '1000' },
    },
  });
  const report = await runCapacity({
    monitors: Number(values.monitors),
    intervalSeconds: Number(values.interval),
    workers: Number(values.workers),
    windowSeconds: Number(values.window),
    checkConcurrency: Number(values.concurrency),
    createConcurrency: Number(values['create-concurrency']),
    baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    profileDir: values.profile === undefined ? undefined : path.resolve(values.profile),
    profileIntervalUs: Number(values['profile-interval']),
    log: (line) => console.error(`[bench] ${line}`),
  });
  printTable(report);
  if (report.profile) for (const line of formatProfileReport(report.profile)) console.log(line);
  // The JSON line stays one line: the profile is in its summary.json.
  console.log(JSON.stringify({ ...report, profile: report.profile ? path.join(report.profile.dir, 'summary.json') : undefined }));
}

function printTable(r: CapacityReport): void {
  const rows: [string, string][] = [
    ['monitors × interval', `${r.monitors} × ${r.intervalSeconds} s (${r.workers === 0 ? 'all-in-one' : `api + ${r.workers} check-workers + notifier`})`],
    ['created through the API in', `${r.createSeconds} s`],
    ['warm-up before the window', `${r.warmupSeconds} s (backlog then: ${r.backlogAtWindowStart} checks)`],
    ['expected checks/s', String(r.expectedPerSecond)],
    ['achieved checks/s', `${r.achievedPerSecond} (${(r.achievedRatio * 100).toFixed(2)} %)`],
    ['gap between checks p50 / p99 / max', `${r.gapMs.p50} / ${r.gapMs.p99} / ${r.gapMs.max} ms`],
    ['monitors never checked in window', String(r.neverChecked)],
    ['checks doubled / lost', `${r.doubled} / ${r.lost}`],
    ['raw result size', `${r.bytesPerResult} bytes per check (table + indexes) as written, ${r.bytesPerResultCompacted} once the day is closed`],
    ['GET /monitors?limit=25 p50 / p99', `${r.apiLatencyMs.listP50} / ${r.apiLatencyMs.listP99} ms`],
    ['GET /monitors/{id} p50 / p99', `${r.apiLatencyMs.getP50} / ${r.apiLatencyMs.getP99} ms`],
    ...r.processes.map((p): [string, string] => [`${p.name}`, `CPU ${p.cpuPercent} %${p.rssMb ? `, RSS ${p.rssMb} MB` : ''}`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
