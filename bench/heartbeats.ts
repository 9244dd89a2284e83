import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatProfileReport } from './capacity/profile-report';
import { runHeartbeats, type Figures, type HeartbeatBenchReport } from './heartbeats/run-heartbeats';

/**
 * pnpm bench:heartbeats [--monitors 100000] [--seconds 180] [--period 60] [--grace 30]
 *   [--late-period 60] [--late-grace 30] [--workers 1] [--profile <dir>]
 * Issue 32's benchmark (docs/heartbeats.md; figures in docs/capacity.md, "Heartbeats"): N
 * heartbeat monitors, all but 1 % pinged once a period by an open-loop load generator, evenly
 * spread; the 1 % never pinged. Prints ping latency, how long after due + grace the silent ones
 * went offline, false offlines among the pinged (target 0), CPU per process, and Redis and
 * Postgres bytes per monitor, then one JSON line. Drops its database and Redis keys at the end
 * (BENCH_KEEP=1 keeps the database). `--profile <dir>`: where the time went while pinging (CPU
 * profiles of the services, Redis commands, Postgres statements), as `bench:capacity --profile`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      monitors: { type: 'string', default: '100000' },
      seconds: { type: 'string', default: '180' },
      period: { type: 'string', default: '60' },
      grace: { type: 'string', default: '30' },
      'late-period': { type: 'string', default: '60' },
      'late-grace': { type: 'string', default: '30' },
      workers: { type: 'string', default: '1' },
      profile: { type: 'string' },
    },
  });
  const report = await runHeartbeats({
    monitors: Number(values.monitors),
    seconds: Number(values.seconds),
    periodSeconds: Number(values.period),
    graceSeconds: Number(values.grace),
    latePeriodSeconds: Number(values['late-period']),
    lateGraceSeconds: Number(values['late-grace']),
    workers: Number(values.workers),
    baseDatabaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    profileDir: values.profile === undefined ? undefined : path.resolve(values.profile),
    log: (line) => console.error(`[bench] ${line}`),
  });
  printTable(report);
  if (report.profile) for (const line of formatProfileReport(report.profile)) console.log(line);
  // The JSON line stays one line: the profile is in its summary.json.
  console.log(JSON.stringify({ ...report, profile: report.profile ? path.join(report.profile.dir, 'summary.json') : undefined }));
}

const ms = (f: Figures, withP95 = true): string => `${f.p50} / ${withP95 ? `${f.p95} / ` : ''}${f.p99} / ${f.max} ms`;

function printTable(r: HeartbeatBenchReport): void {
  const lateSchedule =
    r.latePeriodSeconds === r.periodSeconds && r.lateGraceSeconds === r.graceSeconds
      ? 'the same schedule'
      : `period ${r.latePeriodSeconds} s, grace ${r.lateGraceSeconds} s (shorter, so the run sees them due)`;
  const rows: [string, string][] = [
    [
      'heartbeat monitors',
      `${r.monitors}: ${r.pinged} pinged every ${r.periodSeconds} s (grace ${r.graceSeconds} s), ${r.late} never pinged`,
    ],
    ['never-pinged schedule', lateSchedule],
    ['services', `api + ${r.workers} check-worker${r.workers === 1 ? '' : 's'} + notifier`],
    ['created (SQL + Redis deadlines) in', `${r.createSeconds} s`],
    ['load', `${r.seconds} s, ${r.pingsSent} pings sent; ${r.pingsPerSecond}/s answered 200 (asked ${r.targetPingsPerSecond}/s)`],
    [
      'ping errors (non-200 or failed)',
      `${r.pingErrors} ${JSON.stringify(r.pingErrorsBy)}; ${r.retriedResets} sent again after a kept-alive socket reset`,
    ],
    ['ping latency p50 / p95 / p99 / max', ms(r.pingLatencyMs)],
    ['generator lag p50 / p95 / p99 / max', ms(r.generatorLagMs)],
    ['never pinged, seen offline', `${r.lateSeenOffline} of ${r.late}`],
    ['  after due + grace p50 / p99 / max', `${ms(r.lateOfflineMs, false)} (polled every 100 ms)`],
    ['false offline among the pinged', String(r.falseOffline)],
    ['pinged monitors not online at the end', String(r.pingedNotOnline)],
    ['pings recorded / results recorded', `${r.pingsRecorded} / ${r.resultsRecorded}`],
    ['Redis: deadlines zset per monitor', `${r.redis.deadlinesBytesPerMonitor} bytes`],
    ['Redis: used_memory delta per monitor', `${r.redis.usedMemoryDeltaPerMonitor} bytes (whole server, noisy)`],
    ...Object.entries(r.redis.keysByKind)
      .sort(([, a], [, b]) => b.bytes - a.bytes)
      .slice(0, 6)
      .map(([kind, k]): [string, string] => [`  Redis keys ${kind}`, `${k.keys} keys, ${k.bytes} bytes`]),
    ['Postgres: monitors per monitor', `${r.postgres.monitorsBytesPerMonitor} bytes (table + indexes)`],
    ['Postgres: heartbeat_pings per ping', `${r.postgres.pingsBytesPerPing} bytes`],
    ['Postgres: check_results per result', `${r.postgres.resultsBytesPerResult} bytes`],
    ...r.processes.map((p): [string, string] => [p.name, `CPU ${p.cpuPercent} %${p.rssMb ? `, RSS ${p.rssMb} MB` : ''}`]),
    ['api CPU per ping answered', `${r.apiCpuMsPerPing ?? '-'} ms`],
    ['exit codes', JSON.stringify(r.exitCodes)],
    [
      'autovacuum',
      r.vacuum.autovacuum === 'on'
        ? "the server's own"
        : `off on this server: the harness stood in (${r.vacuum.rounds} rounds of VACUUM (ANALYZE), slowest ${r.vacuum.slowestRoundSeconds} s)`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
