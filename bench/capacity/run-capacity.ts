import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import IORedis from 'ioredis';
import { compactResultPartitions, generateApiToken, hashApiToken, openDatabase, resultStorage } from '@uptime/db';
import { QueueName } from '@uptime/queues';
import { createDatabaseFrom } from '@uptime/testing';
import {
  DNS_TARGET_RECEIVE_BUFFER_BYTES,
  dnsNameOf,
  startCountingDnsTarget,
  startCountingTarget,
  startCountingTcpTarget,
  startMixedTargets,
  TARGET_PATH,
  tcpGreetingOf,
  type CountingTarget,
  type TargetKind,
} from './counting-target';
import { quantile } from './percentiles';
import { cpuSeconds, cpuSnapshot, groupCpuSince, pidsOf, rssMb } from './process-stats';
import { CapacityProfiler, type ProfileReport } from './profile';
import { kindOf, typeOf, verifiesTls, type TargetMix } from './scenarios';
import { startVacuumStandIn, type VacuumStandIn } from './vacuum-stand-in';
import { ROOT, startServiceProcess, stopServiceProcess, type ServiceProcess } from './service-processes';
import { makeTlsMaterial, type TlsMaterial } from './tls-material';
import { benchServiceEnv } from '../service-env';

export interface CapacityOptions {
  monitors: number;
  intervalSeconds: number;
  /** 0: everything in one all-in-one process; N: api + N check-workers + notifier. */
  workers: number;
  windowSeconds: number;
  /** CHECK_CONCURRENCY for the services; unset: the product's default. */
  checkConcurrency?: number;
  /** Create requests in flight at once. */
  createConcurrency: number;
  /**
   * Monitors per `POST /monitors/bulk/create` (1 to 100); 0: one `POST /monitors` each. Default
   * 100: the setup is not what the window measures (docs/capacity.md, "Creating monitors").
   */
  createBatch?: number;
  /** What the monitors probe; by default plain HTTP targets that answer at once. */
  mix?: TargetMix;
  baseDatabaseUrl: string;
  /** A migrated database to copy the run's from (the test suite's template); unset: migrate an empty one. */
  templateDatabase?: string;
  redisUrl: string;
  /** CPU-profile every service process into this directory and read Redis and Postgres statistics over the window. */
  profileDir?: string;
  /** The CPU profiles' sampling interval (V8's default: 1000 µs). */
  profileIntervalUs?: number;
  log?: (line: string) => void;
}

export interface ProcessFigures {
  name: string;
  cpuPercent: number;
  rssMb: number;
}

export interface CapacityReport {
  monitors: number;
  intervalSeconds: number;
  workers: number;
  windowSeconds: number;
  createSeconds: number;
  /** Monitors per create request: 0 for one `POST /monitors` each, else a bulk create of that many. */
  createBatch: number;
  /** From the last monitor created to the window: one interval, then until the queue's backlog was worked off. */
  warmupSeconds: number;
  /** Checks due but not yet taken by a worker when the window opened. */
  backlogAtWindowStart: number;
  expectedPerSecond: number;
  achievedPerSecond: number;
  achievedRatio: number;
  gapMs: GapFigures;
  /** The same per kind of target (fast, slow, hang), so slow ones cannot hide in the fast ones' figures. */
  /** By target kind (fast, slow, hang), or in the mixed scenario by monitor type. */
  gapMsByKind: Record<string, GapFigures & { monitors: number; hits: number }>;
  mix: TargetMix;
  checkConcurrency: number | null;
  /** Results recorded as down (the hanging targets' timeouts, in the failing mix). */
  downResults: number;
  /** The same, by the kind of target the monitor checks. */
  downResultsByKind: Partial<Record<TargetKind, number>>;
  /** The errors of the down results, most frequent first (at most 5): a timeout on a saturated machine reads differently from a refused connection. */
  downErrors: { error: string; results: number }[];
  /** HTTPS only: TLS handshakes at the target, full and resumed. */
  tlsHandshakes?: { full: number; resumed: number };
  /** With a DNS target: queries the kernel dropped at its UDP socket over the run, and its receive buffer (bytes, as the kernel set it). */
  dnsTargetUdp?: { drops: number; receiveBufferBytes: number };
  neverChecked: number;
  doubled: number;
  /** Target hits without a recorded result. */
  lost: number;
  /**
   * Checks the check-workers put back in the queue at their shutdown deadline (in flight for more
   * than 30 s after the stop: an overloaded worker). Their hits, if the probe had already reached
   * the target, are counted in `lost` too; `lost - requeuedAtStop` is what no worker would retry.
   */
  requeuedAtStop: number;
  hitsTotal: number;
  resultsTotal: number;
  /** Raw results on disk (every partition's heap and indexes) per check, as written during the run. */
  bytesPerResult: number | null;
  /** The same once the day is closed and its key index rebuilt (what all but today's partition cost). */
  bytesPerResultCompacted: number | null;
  /** Postgres's autovacuum during the run: the server's own, or the harness's stand-in (vacuum-stand-in.ts) and its rounds. */
  vacuum: { autovacuum: 'on' | 'stood in'; rounds: number; slowestRoundSeconds: number };
  apiLatencyMs: { listP50: number | null; listP99: number | null; getP50: number | null; getP99: number | null };
  processes: ProcessFigures[];
  exitCodes: Record<string, number | null>;
  /** Up to five monitors whose hits and results disagree (hit times and result times, ms). */
  mismatches: { monitorId: number; hits: number[]; results: number[] }[];
  /** With `profileDir` only. */
  profile?: ProfileReport;
}

export interface GapFigures {
  p50: number | null;
  p99: number | null;
  max: number | null;
}

const gapFigures = (gaps: number[]): GapFigures => ({
  p50: quantile(gaps, 0.5),
  p99: quantile(gaps, 0.99),
  max: gaps.length ? gaps.reduce((a, b) => (b > a ? b : a)) : null,
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function timed(url: string, auth: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers: { authorization: auth } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return performance.now() - t;
}

/**
 * Starts the service as a user would, creates monitors through the API against a counting loopback
 * target, waits one interval, then measures a steady window: achieved rate, per-monitor gaps, CPU
 * and RSS per process, bytes per raw result and API read latency. Stops everything gracefully and
 * counts hits without a recorded result (lost) and results of a check recorded twice (doubled).
 */
export async function runCapacity(o: CapacityOptions): Promise<CapacityReport> {
  const log = o.log ?? (() => undefined);
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const dbUrl = new URL(o.baseDatabaseUrl);
  dbUrl.pathname = `/uptime_bench_${runId}`;
  const databaseUrl = dbUrl.toString();
  const prefix = `uptime_bench_${runId}`;
  const mix: TargetMix = o.mix ?? { protocol: 'http' };
  const tls = mix.protocol === 'https' ? makeTlsMaterial() : undefined;
  const targets = await startTargets(mix, tls);
  const { target } = targets;
  // Linux reports twice the size asked for; less means net.core.rmem_max capped it.
  if (target.udp && target.udp.receiveBufferBytes < 2 * DNS_TARGET_RECEIVE_BUFFER_BYTES) {
    log(
      `the DNS target's receive buffer is ${target.udp.receiveBufferBytes} bytes (net.core.rmem_max): queries may be dropped at the target`,
    );
  }
  const processes: ServiceProcess[] = [];
  const profiler = o.profileDir
    ? new CapacityProfiler({
        dir: o.profileDir,
        intervalUs: o.profileIntervalUs ?? 1000,
        databaseUrl,
        redisUrl: o.redisUrl,
        root: ROOT,
        log,
      })
    : undefined;
  let report: CapacityReport | undefined;
  let vacuum: VacuumStandIn | undefined;
  try {
    // Migrate (or copy a migrated template) and create the caller before the services start.
    if (o.templateDatabase) await createDatabaseFrom(o.templateDatabase, databaseUrl);
    const ds = await openDatabase(databaseUrl, { poolSize: 2 });
    const token = generateApiToken();
    const [user] = await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`);
    await ds.query(`INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'bench', $2)`, [user.id, hashApiToken(token)]);
    await ds.destroy();
    vacuum = await startVacuumStandIn(databaseUrl);
    await profiler?.prepare();
    const auth = `Bearer ${token}`;

    const port = 20000 + Math.floor(Math.random() * 20000);
    const api = `http://127.0.0.1:${port}`;
    const env = {
      ...benchServiceEnv({ databaseUrl, redisUrl: o.redisUrl, prefix }),
      PORT: String(port),
      HOST: '127.0.0.1',
      MIN_CHECK_INTERVAL_SECONDS: '1',
      ALLOW_PRIVATE_TARGETS: 'true',
      ...(o.checkConcurrency === undefined ? {} : { CHECK_CONCURRENCY: String(o.checkConcurrency) }),
      // Monitors that verify TLS trust the harness's own certificate, as they would a public CA's.
      ...(tls ? { NODE_EXTRA_CA_CERTS: tls.certPath } : {}),
      LOG_LEVEL: 'warn',
      HEALTH_PORT: '0',
    };
    const start = (kind: Parameters<typeof startServiceProcess>[0], name: string): ServiceProcess =>
      startServiceProcess(kind, name, env, profiler?.nodeArgs(name));
    if (o.workers === 0) processes.push(start('all-in-one', 'all-in-one'));
    else {
      processes.push(start('api', 'api'));
      for (let i = 1; i <= o.workers; i++) processes.push(start('check-worker', `check-worker-${i}`));
      processes.push(start('notifier', 'notifier'));
    }
    for (let i = 0; ; i++) {
      try {
        await timed(`${api}/api/v1/monitors?limit=1`, auth);
        break;
      } catch {
        if (i > 240) throw new Error('api did not come up within 60 s');
        await sleep(250);
      }
    }

    const createBatch = o.createBatch ?? 100;
    log(`creating ${o.monitors} monitors at ${o.intervalSeconds} s${createBatch > 0 ? `, ${createBatch} a bulk create` : ''}`);
    const createStart = performance.now();
    const idOfIndex: number[] = new Array(o.monitors);
    const bodyOf = (i: number): Record<string, unknown> => {
      const kind = kindOf(i, mix);
      return {
        name: `m${i}`,
        ...targets.monitorOf(i, kind),
        check_interval: o.intervalSeconds,
        // A hanging target times out after the shortest timeout allowed; a slow one answers in time.
        timeout: kind === 'hang' ? 5 : 10,
        retry_count: 0,
        ...(mix.protocol === 'https' ? { verify_ssl: verifiesTls(i) } : {}),
      };
    };
    const requests: number[][] = [];
    for (let i = 0; i < o.monitors; i += Math.max(1, createBatch)) {
      requests.push(Array.from({ length: Math.min(Math.max(1, createBatch), o.monitors - i) }, (_, k) => i + k));
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: o.createConcurrency }, async () => {
        while (next < requests.length) {
          const indexes = requests[next++]!;
          const ids =
            createBatch > 0
              ? await createThroughApi(`${api}/api/v1/monitors/bulk/create`, auth, { monitors: indexes.map(bodyOf) })
              : await createThroughApi(`${api}/api/v1/monitors`, auth, bodyOf(indexes[0]!));
          indexes.forEach((index, k) => (idOfIndex[index] = ids[k]!));
        }
      }),
    );
    const createSeconds = (performance.now() - createStart) / 1000;
    log(`created in ${createSeconds.toFixed(1)} s; warming up for one interval`);
    const warmupStart = performance.now();
    await sleep(o.intervalSeconds * 1000 + 1000);
    // The creation burst queued one immediate check per monitor on top of the schedules: the
    // window opens once the workers have worked that backlog off (at most ten more intervals: a
    // bulk setup queues its immediate checks faster than the workers' room beside the schedule).
    const backlog = await waitForBacklog(
      o.redisUrl,
      `${prefix}:${QueueName.checks}:wait`,
      o.monitors / o.intervalSeconds,
      o.intervalSeconds * 10_000,
      log,
    );
    const warmupSeconds = (performance.now() - warmupStart) / 1000;

    await profiler?.windowStarted();
    const cpuBefore = new Map(processes.map((p) => [p.name, cpuSeconds(p.pid)]));
    const pgBefore = cpuSnapshot('postgres');
    const redisBefore = cpuSnapshot('redis-server');
    const windowStart = Date.now();
    log(`measuring for ${o.windowSeconds} s`);
    const listLatencies: number[] = [];
    const getLatencies: number[] = [];
    let sample = 0;
    while (Date.now() - windowStart < o.windowSeconds * 1000) {
      const id = idOfIndex[sample++ % idOfIndex.length]!;
      listLatencies.push(await timed(`${api}/api/v1/monitors?limit=25&page=${1 + (sample % 20)}`, auth));
      getLatencies.push(await timed(`${api}/api/v1/monitors/${id}`, auth));
      await sleep(100);
    }
    const windowEnd = Date.now();
    const windowSeconds = (windowEnd - windowStart) / 1000;
    const figures: ProcessFigures[] = processes.map((p) => ({
      name: p.name,
      cpuPercent: ((cpuSeconds(p.pid) - cpuBefore.get(p.name)!) / windowSeconds) * 100,
      rssMb: rssMb(p.pid),
    }));
    figures.push({ name: 'postgres (all)', cpuPercent: (groupCpuSince('postgres', pgBefore) / windowSeconds) * 100, rssMb: 0 });
    figures.push({
      name: 'redis',
      cpuPercent: (groupCpuSince('redis-server', redisBefore) / windowSeconds) * 100,
      rssMb: pidsOf('redis-server').reduce((sum, pid) => sum + rssMb(pid), 0),
    });
    await profiler?.windowEnded();

    const exitCodes: Record<string, number | null> = {};
    let requeuedAtStop = 0;
    for (const p of [...processes].reverse()) {
      exitCodes[p.name] = await stopServiceProcess(p);
      requeuedAtStop += p.requeuedAtStop;
    }
    // Each process wrote its CPU profile as it exited.
    const profile = profiler?.summarise(processes);
    processes.length = 0;
    const resultsDs = await openDatabase(databaseUrl, { poolSize: 1 });
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    const { results, bytes } = await resultStorage(resultsDs);
    // What the day's partition costs once closed: the maintenance job rebuilds a closed day's
    // key index packed; here the run's days are closed at once to read that size.
    await compactResultPartitions(resultsDs, new Date(8.64e15));
    const compactedBytes = (await resultStorage(resultsDs)).bytes;
    await resultsDs.destroy();
    // Monitors whose target hits and recorded results disagree, with both time lists, for diagnosis.
    const perMonitor = (
      await pg.query(
        `SELECT monitor_id, array_agg((extract(epoch FROM scheduled_at) * 1000)::bigint + start_lag_ms ORDER BY scheduled_at) AS times FROM check_results GROUP BY monitor_id`,
      )
    ).rows as { monitor_id: number; times: string[] }[];
    const resultTimes = new Map(perMonitor.map((r) => [r.monitor_id, r.times.map(Number)]));
    // Ping monitors' echoes reach no counting target: their results' start times stand in for hits.
    const pingResults = idOfIndex.filter((_, i) => typeOf(i, mix) === 'ping').reduce((sum, id) => sum + (resultTimes.get(id)?.length ?? 0), 0);
    const hitsOf = (i: number): number[] => (typeOf(i, mix) === 'ping' ? (resultTimes.get(idOfIndex[i]!) ?? []) : (target.hits.get(i) ?? []));
    let inWindow = 0;
    let neverChecked = 0;
    const gaps: number[] = [];
    // By target kind (fast, slow, hang), and in the mixed scenario by monitor type.
    const gapsByKind = new Map<string, { gaps: number[]; monitors: number; hits: number }>();
    let doubled = 0;
    const intervalMs = o.intervalSeconds * 1000;
    for (let i = 0; i < o.monitors; i++) {
      const times = hitsOf(i);
      const within = times.filter((t) => t >= windowStart && t < windowEnd);
      inWindow += within.length;
      if (within.length === 0) neverChecked += 1;
      const kind = mix.protocol === 'mixed' ? typeOf(i, mix) : kindOf(i, mix);
      let ofKind = gapsByKind.get(kind);
      if (!ofKind) gapsByKind.set(kind, (ofKind = { gaps: [], monitors: 0, hits: 0 }));
      ofKind.monitors += 1;
      ofKind.hits += times.length;
      for (let k = 1; k < times.length; k++) {
        if (times[k]! < windowStart || times[k]! >= windowEnd) continue;
        const gap = times[k]! - times[k - 1]!;
        gaps.push(gap);
        ofKind.gaps.push(gap);
        if (gap < intervalMs / 2) doubled += 1;
      }
    }
    const expectedPerSecond = o.monitors / o.intervalSeconds;
    const achievedPerSecond = inWindow / windowSeconds;

    const mismatches: CapacityReport['mismatches'] = [];
    for (let i = 0; i < o.monitors && mismatches.length < 5; i++) {
      const hits = hitsOf(i);
      const recorded = resultTimes.get(idOfIndex[i]!) ?? [];
      if (hits.length !== recorded.length) mismatches.push({ monitorId: idOfIndex[i]!, hits, results: recorded });
    }
    const downRows = (await pg.query(`SELECT monitor_id, count(*)::int AS n FROM check_results WHERE NOT ok GROUP BY monitor_id`)).rows as {
      monitor_id: number;
      n: number;
    }[];
    const kindOfId = new Map(idOfIndex.map((id, i) => [id, kindOf(i, mix)] as const));
    const downByKind: Partial<Record<TargetKind, number>> = {};
    for (const r of downRows) {
      const kind = kindOfId.get(r.monitor_id) ?? 'fast';
      downByKind[kind] = (downByKind[kind] ?? 0) + r.n;
    }
    const down = downRows.reduce((sum, r) => sum + r.n, 0);
    const downErrors = (
      await pg.query(
        `SELECT coalesce(error, '') AS error, count(*)::int AS results FROM check_results WHERE NOT ok GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
      )
    ).rows as { error: string; results: number }[];
    await pg.end();
    const hitsTotal = target.total() + pingResults;
    report = {
      monitors: o.monitors,
      intervalSeconds: o.intervalSeconds,
      workers: o.workers,
      windowSeconds: Math.round(windowSeconds),
      createSeconds: Math.round(createSeconds * 10) / 10,
      createBatch,
      warmupSeconds: Math.round(warmupSeconds),
      backlogAtWindowStart: backlog,
      expectedPerSecond,
      achievedPerSecond: Math.round(achievedPerSecond * 10) / 10,
      achievedRatio: Math.round((achievedPerSecond / expectedPerSecond) * 10000) / 10000,
      gapMs: gapFigures(gaps),
      gapMsByKind: Object.fromEntries(
        [...gapsByKind].map(([kind, g]) => [kind, { ...gapFigures(g.gaps), monitors: g.monitors, hits: g.hits }]),
      ),
      mix,
      checkConcurrency: o.checkConcurrency ?? null,
      downResults: down,
      downResultsByKind: downByKind,
      downErrors,
      ...(tls ? { tlsHandshakes: { ...target.handshakes } } : {}),
      ...(target.udp ? { dnsTargetUdp: { drops: target.udp.drops(), receiveBufferBytes: target.udp.receiveBufferBytes } } : {}),
      neverChecked,
      doubled,
      lost: Math.max(0, hitsTotal - results),
      requeuedAtStop,
      hitsTotal,
      resultsTotal: results,
      bytesPerResult: results > 0 ? Math.round(bytes / results) : null,
      bytesPerResultCompacted: results > 0 ? Math.round(compactedBytes / results) : null,
      apiLatencyMs: {
        listP50: round(quantile(listLatencies, 0.5)),
        listP99: round(quantile(listLatencies, 0.99)),
        getP50: round(quantile(getLatencies, 0.5)),
        getP99: round(quantile(getLatencies, 0.99)),
      },
      vacuum: { autovacuum: vacuum.autovacuum, rounds: vacuum.rounds().count, slowestRoundSeconds: round(vacuum.rounds().slowestSeconds) ?? 0 },
      processes: figures.map((f) => ({ name: f.name, cpuPercent: Math.round(f.cpuPercent), rssMb: Math.round(f.rssMb) })),
      exitCodes,
      mismatches,
      ...(profile ? { profile } : {}),
    };
    return report;
  } finally {
    await profiler?.close();
    for (const p of processes) await stopServiceProcess(p, 5000);
    await vacuum?.stop();
    await target.close();
    tls?.remove();
    await dropRun(o.baseDatabaseUrl, databaseUrl, o.redisUrl, prefix);
  }
}

/** The counting targets a mix probes, and what the monitor at an index is created with. */
async function startTargets(
  mix: TargetMix,
  tls: TlsMaterial | undefined,
): Promise<{ target: CountingTarget; monitorOf(index: number, kind: TargetKind): Record<string, unknown> }> {
  const http = (url: string, index: number, kind: TargetKind) => ({ type: 'http', url: `${url}/${TARGET_PATH[kind]}/${index}` });
  const tcp = (url: string, index: number) => ({ type: 'tcp', url, tcp_send: tcpGreetingOf(index) });
  const dns = (resolver: string, index: number) => ({ type: 'dns', url: `dns://${dnsNameOf(index)}`, dns_resolver: resolver });
  switch (mix.protocol) {
    case 'dns': {
      const target = await startCountingDnsTarget();
      return { target, monitorOf: (i) => dns(target.url, i) };
    }
    case 'tcp': {
      const target = await startCountingTcpTarget();
      return { target, monitorOf: (i) => tcp(target.url, i) };
    }
    case 'mixed': {
      const target = await startMixedTargets();
      const byType = {
        http: (i: number, kind: TargetKind) => http(target.http.url, i, kind),
        tcp: (i: number) => tcp(target.tcp.url, i),
        dns: (i: number) => dns(target.dns.url, i),
        ping: () => ({ type: 'ping', url: 'ping://127.0.0.1' }),
      };
      return { target, monitorOf: (i, kind) => byType[typeOf(i, mix)](i, kind) };
    }
    default: {
      const target = await startCountingTarget({ tls });
      return { target, monitorOf: (i, kind) => http(target.url, i, kind) };
    }
  }
}

/**
 * Sends one create request, `POST /monitors` or a bulk create, and answers the new monitors' ids
 * in the order of the bodies. A 503 is the api's dependency deadline on a loaded machine, answered
 * before anything is written (docs/reliability.md): asked again, as a client should.
 */
export async function createThroughApi(url: string, auth: string, body: object): Promise<number[]> {
  const create = (): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let res = await create();
  for (let attempt = 1; res.status === 503 && attempt < 40; attempt++) {
    await res.arrayBuffer();
    await sleep(500);
    res = await create();
  }
  const answer = (await res.json()) as { data?: { id: number } | { id: number }[] };
  if (res.status !== 201 || !answer.data) throw new Error(`create answered ${res.status}: ${JSON.stringify(answer)}`);
  return (Array.isArray(answer.data) ? answer.data : [answer.data]).map((m) => m.id);
}

const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 10) / 10);

/**
 * Waits until fewer checks wait in the queue than one second of the expected rate, three samples
 * in a row, or `maxMs`; returns the queue's length then.
 */
async function waitForBacklog(
  redisUrl: string,
  waitKey: string,
  perSecond: number,
  maxMs: number,
  log: (line: string) => void,
): Promise<number> {
  const redis = new IORedis(redisUrl);
  try {
    const deadline = Date.now() + maxMs;
    let calm = 0;
    for (;;) {
      const waiting = await redis.llen(waitKey);
      calm = waiting < perSecond ? calm + 1 : 0;
      if (calm >= 3 || Date.now() >= deadline) {
        if (calm < 3) log(`backlog still ${waiting} checks when the window opens`);
        return waiting;
      }
      await sleep(1000);
    }
  } finally {
    await redis.quit();
  }
}

export async function dropRun(baseUrl: string, databaseUrl: string, redisUrl: string, prefix: string): Promise<void> {
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const pg = new Client({ connectionString: admin.toString() });
  await pg.connect();
  await pg.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`).catch(() => undefined);
  await pg.end();
  const redis = new IORedis(redisUrl);
  let cursor = '0';
  do {
    const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 5000);
    cursor = nextCursor;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}
