import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatProfileReport } from './capacity/profile-report';
import { runCapacity, type CapacityReport } from './capacity/run-capacity';
import { isScenarioName, SCENARIOS } from './capacity/scenarios';

/**
 * pnpm bench:capacity [--scenario default|https|slow-mix|failing-mix|dns|tcp|mixed|60k] [--monitors N] [--interval S]
 *   [--workers N] [--window S] [--concurrency N] [--create-batch 100] [--create-concurrency N] [--profile <dir> [--profile-interval 1000]]
 * A scenario sets the monitors, interval, workers, window and target mix; the other flags override
 * it. `--create-batch`: monitors per `POST /monitors/bulk/create` while setting up, 4 requests at
 * once by default (0: one `POST /monitors` each, 32 at once); the window opens only once every
 * monitor exists and its warm-up is over either way. Prints a table and one JSON line (see
 * docs/capacity.md). `--profile <dir>` adds where the time went in the window: CPU profiles of
 * each process, Redis commands, Postgres statements; the section is printed after the table and
 * written to <dir>/summary.json. `--profile-interval`: the CPU
 * sampling interval in µs; every sample costs the profiled processes CPU, fewer cost less.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', default: 'default' },
      monitors: { type: 'string' },
      interval: { type: 'string' },
      workers: { type: 'string' },
      window: { type: 'string' },
      concurrency: { type: 'string' },
      'create-concurrency': { type: 'string' },
      'create-batch': { type: 'string', default: '100' },
      profile: { type: 'string' },
      'profile-interval': { type: 'string', default: '1000' },
    },
  });
  const name = values.scenario;
  if (!isScenarioName(name)) throw new Error(`unknown scenario "${name}"; one of: ${Object.keys(SCENARIOS).join(', ')}`);
  const scenario = SCENARIOS[name];
  const numberOr = (flag: string | undefined, fallback: number): number => (flag === undefined ? fallback : Number(flag));
  const report = await runCapacity({
    monitors: numberOr(values.monitors, scenario.monitors),
    intervalSeconds: numberOr(values.interval, scenario.intervalSeconds),
    workers: numberOr(values.workers, scenario.workers),
    windowSeconds: numberOr(values.window, scenario.windowSeconds),
    checkConcurrency: values.concurrency === undefined ? undefined : Number(values.concurrency),
    mix: scenario.mix,
    createBatch: Number(values['create-batch']),
    // Bulk creates of 100 are each a longer transaction: a few at once keep the api's pool free.
    createConcurrency: numberOr(values['create-concurrency'], Number(values['create-batch']) > 0 ? 4 : 32),
    baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    profileDir: values.profile === undefined ? undefined : path.resolve(values.profile),
    profileIntervalUs: Number(values['profile-interval']),
    log: (line) => console.error(`[bench] ${line}`),
  });
  console.log(`scenario ${name}`);
  printTable(report);
  if (report.profile) for (const line of formatProfileReport(report.profile)) console.log(line);
  // The JSON line stays one line: the profile is in its summary.json.
  console.log(JSON.stringify({ ...report, profile: report.profile ? path.join(report.profile.dir, 'summary.json') : undefined }));
}

function printTable(r: CapacityReport): void {
  const rows: [string, string][] = [
    [
      'monitors × interval',
      `${r.monitors} × ${r.intervalSeconds} s (${r.workers === 0 ? 'all-in-one' : `api + ${r.workers} check-workers + notifier`})`,
    ],
    ['targets', describeMix(r)],
    ['CHECK_CONCURRENCY', r.checkConcurrency === null ? 'default' : String(r.checkConcurrency)],
    ['created through the API in', `${r.createSeconds} s (${r.createBatch > 0 ? `bulk creates of ${r.createBatch}` : 'one POST /monitors each'})`],
    ['warm-up before the window', `${r.warmupSeconds} s (backlog then: ${r.backlogAtWindowStart} checks)`],
    ['expected checks/s', String(r.expectedPerSecond)],
    ['achieved checks/s', `${r.achievedPerSecond} (${(r.achievedRatio * 100).toFixed(2)} %)`],
    ['gap between checks p50 / p99 / max', `${r.gapMs.p50} / ${r.gapMs.p99} / ${r.gapMs.max} ms`],
    ...Object.entries(r.gapMsByKind).map(([kind, g]): [string, string] => [
      `  ${kind} (${g.monitors}) gap p50 / p99 / max`,
      `${g.p50} / ${g.p99} / ${g.max} ms`,
    ]),
    ['monitors never checked in window', String(r.neverChecked)],
    ['results recorded down', String(r.downResults)],
    ...r.downErrors.map((e): [string, string] => [`  ${e.results} of them`, e.error]),
    ...(r.tlsHandshakes
      ? [['TLS handshakes full / resumed', `${r.tlsHandshakes.full} / ${r.tlsHandshakes.resumed}`] as [string, string]]
      : []),
    ...(r.dnsTargetUdp
      ? [
          [
            'DNS target: queries dropped / receive buffer',
            `${r.dnsTargetUdp.drops} / ${Math.round(r.dnsTargetUdp.receiveBufferBytes / 1024)} KiB`,
          ] as [string, string],
        ]
      : []),
    ['checks doubled / lost', `${r.doubled} / ${r.lost}`],
    ["checks requeued at the workers' stop deadline", String(r.requeuedAtStop)],
    [
      'raw result size',
      `${r.bytesPerResult} bytes per check (table + indexes) as written, ${r.bytesPerResultCompacted} once the day is closed`,
    ],
    [
      'autovacuum',
      r.vacuum.autovacuum === 'on'
        ? "the server's own"
        : `off on this server: the harness stood in (${r.vacuum.rounds} rounds of VACUUM (ANALYZE), slowest ${r.vacuum.slowestRoundSeconds} s)`,
    ],
    ['GET /monitors?limit=25 p50 / p99', `${r.apiLatencyMs.listP50} / ${r.apiLatencyMs.listP99} ms`],
    ['GET /monitors/{id} p50 / p99', `${r.apiLatencyMs.getP50} / ${r.apiLatencyMs.getP99} ms`],
    ...r.processes.map((p): [string, string] => [`${p.name}`, `CPU ${p.cpuPercent} %${p.rssMb ? `, RSS ${p.rssMb} MB` : ''}`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

function describeMix(r: CapacityReport): string {
  const PROTOCOLS = {
    http: 'HTTP, a fresh connection per check',
    https: 'HTTPS, a fresh handshake per check, verify_ssl on half',
    dns: 'DNS, one A query over UDP per check to a loopback resolver',
    tcp: 'TCP, a fresh connection per check sending one line',
    mixed: '70 % HTTP, 15 % TCP, 10 % DNS (as above), 5 % ping to 127.0.0.1 (3 echoes, counted from their results)',
  } as const;
  const parts: string[] = [PROTOCOLS[r.mix.protocol]];
  if (r.mix.slowPercent) parts.push(`${r.mix.slowPercent} % answer after 5 s`);
  if (r.mix.hangPercent) parts.push(`${r.mix.hangPercent} % never answer (5-s timeout)`);
  return parts.join('; ');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
