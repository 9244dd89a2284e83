import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import IORedis from 'ioredis';
import { Queue } from 'bullmq';
import { openDatabase, resultStorage } from '@uptime/db';
import { createDatabaseFrom } from '@uptime/testing';
// Relative imports: the root package depends on no service; the bench uses their own code.
import { heartbeatDeadline } from '../../packages/probe/src';
import { newHeartbeatToken } from '../../services/api/src/monitors/heartbeat-token';
import { heartbeatDeadlinesKey, QueueName } from '../../packages/queues/src';
import { quantile } from '../capacity/percentiles';
import { cpuSeconds, cpuSnapshot, groupCpuSince, rssMb } from '../capacity/process-stats';
import { CapacityProfiler, type ProfileReport } from '../capacity/profile';
import { ROOT, startServiceProcess, stopServiceProcess, type ServiceProcess } from '../capacity/service-processes';
import { startVacuumStandIn, type VacuumStandIn } from '../capacity/vacuum-stand-in';
import { benchServiceEnv } from '../service-env';

export interface HeartbeatBenchOptions {
  monitors: number;
  /** How long the load generator pings. */
  seconds: number;
  /** The pinged monitors' period and grace (the issue's: 60 s and 30 s). */
  periodSeconds: number;
  graceSeconds: number;
  /** The never-pinged 1 %'s period and grace: shorter than the others' only so a short run sees them go offline. */
  latePeriodSeconds: number;
  lateGraceSeconds: number;
  /** api + N check-workers + notifier. */
  workers: number;
  baseDatabaseUrl: string;
  /** A migrated database to copy the run's from (the test suite's template); unset: migrate an empty one. */
  templateDatabase?: string;
  redisUrl: string;
  /** Where `--profile` writes CPU profiles of the services, Redis commands and Postgres statements over the pinging window. */
  profileDir?: string;
  log?: (line: string) => void;
}

export interface Figures {
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export interface HeartbeatBenchReport {
  monitors: number;
  pinged: number;
  late: number;
  periodSeconds: number;
  graceSeconds: number;
  latePeriodSeconds: number;
  lateGraceSeconds: number;
  workers: number;
  seconds: number;
  createSeconds: number;
  pingsSent: number;
  /** Pings answered 200 per second over the run, and the rate asked for (monitors pinged / period). */
  pingsPerSecond: number;
  targetPingsPerSecond: number;
  /** Answers other than 200 (429, 5xx) and requests that failed outright. */
  pingErrors: number;
  /** The same by status code or error code. */
  pingErrorsBy: Record<string, number>;
  /** Pings sent again because the server closed their kept-alive socket as it was reused. */
  retriedResets: number;
  /** From send to the whole answer read, ms. */
  pingLatencyMs: Figures;
  /** How far behind its schedule the generator sent a ping (it is not a closed loop: a slow answer does not delay the next). */
  generatorLagMs: Figures;
  /** Of the never-pinged monitors, from due + grace to the moment the bench saw them offline (polled every 100 ms). */
  lateOfflineMs: Figures;
  lateSeenOffline: number;
  /** Pinged monitors that had any offline status event: the target is 0. */
  falseOffline: number;
  /** Pinged monitors not online at the end (pending: never pinged in time; offline: see falseOffline). */
  pingedNotOnline: number;
  pingsRecorded: number;
  resultsRecorded: number;
  redis: {
    /** MEMORY USAGE of the deadlines sorted set per heartbeat monitor. */
    deadlinesBytesPerMonitor: number;
    /** MEMORY USAGE of every key of the run's prefix at the end, by kind, in bytes. */
    keysByKind: Record<string, { keys: number; bytes: number }>;
    /** INFO used_memory after the run less before the monitors were created, per monitor (the whole server: noisy). */
    usedMemoryDeltaPerMonitor: number;
  };
  postgres: {
    /** pg_total_relation_size(monitors) per monitor (table, TOAST and indexes, the token index among them). */
    monitorsBytesPerMonitor: number;
    /** heartbeat_pings (table and indexes) per recorded ping. */
    pingsBytesPerPing: number | null;
    /** check_results partitions per result (each stepped ping is a result). */
    resultsBytesPerResult: number | null;
  };
  processes: { name: string; cpuPercent: number; rssMb: number }[];
  /**
   * The api's CPU time (user + system, from /proc) over the pinging window per ping answered,
   * in ms: what a ping costs, which the machine's load changes far less than latency.
   */
  apiCpuMsPerPing: number | null;
  /** Exit code of each service, or the signal that ended it (SIGKILL: it did not stop within 10 s of SIGTERM). */
  exitCodes: Record<string, number | string | null>;
  /** Postgres's autovacuum during the run: the server's own, or the stand-in's rounds (vacuum-stand-in.ts). */
  vacuum: { autovacuum: 'on' | 'stood in'; rounds: number; slowestRoundSeconds: number };
  /** With `profileDir` only. */
  profile?: ProfileReport;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round = (n: number | null, digits = 1): number | null => (n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits);
const figures = (values: number[]): Figures => ({
  p50: round(quantile(values, 0.5)),
  p95: round(quantile(values, 0.95)),
  p99: round(quantile(values, 0.99)),
  max: round(values.length ? values.reduce((a, b) => (b > a ? b : a)) : null),
});

/**
 * The heartbeat benchmark of issue 32 (docs/heartbeats.md, docs/capacity.md "Heartbeats"): starts
 * api + check-workers + notifier as a user would, on a database and QUEUE_PREFIX of its own,
 * writes N heartbeat monitors straight into Postgres (as the API's create writes them: a token,
 * the first due time one period on, and the deadline in Redis), then pings all but 1 % of them
 * at their period, evenly spread, and watches the 1 % go offline.
 */
export async function runHeartbeats(o: HeartbeatBenchOptions): Promise<HeartbeatBenchReport> {
  const log = o.log ?? (() => undefined);
  if (o.seconds < o.latePeriodSeconds + o.lateGraceSeconds + 2) {
    throw new Error(
      `--seconds ${o.seconds} ends before the never-pinged monitors are due offline (${o.latePeriodSeconds} + ${o.lateGraceSeconds} s)`,
    );
  }
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const dbUrl = new URL(o.baseDatabaseUrl);
  dbUrl.pathname = `/uptime_bench_hb_${runId}`;
  const databaseUrl = dbUrl.toString();
  const prefix = `uptime_bench_hb_${runId}`;
  const redis = new IORedis(o.redisUrl, { maxRetriesPerRequest: null });
  const processes: ServiceProcess[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const profiler = o.profileDir
    ? new CapacityProfiler({ dir: o.profileDir, intervalUs: 1000, databaseUrl, redisUrl: o.redisUrl, root: ROOT, log })
    : undefined;
  let vacuum: VacuumStandIn | undefined;
  try {
    if (o.templateDatabase) await createDatabaseFrom(o.templateDatabase, databaseUrl);
    const ds = await openDatabase(databaseUrl, { poolSize: 4 });
    const [user] = await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`);
    // A ping inserts into the inbox and its step deletes from it, and updates the monitor's row:
    // with the server's autovacuum off (a CI machine's), their dead row versions would pile up
    // for the whole run, which no installation does (vacuum-stand-in.ts).
    vacuum = await startVacuumStandIn(databaseUrl);

    const port = 20000 + Math.floor(Math.random() * 20000);
    const api = `http://127.0.0.1:${port}`;
    const env = {
      ...benchServiceEnv({ databaseUrl, redisUrl: o.redisUrl, prefix }),
      PORT: String(port),
      HOST: '127.0.0.1',
      // Every ping comes from the one loopback address: the per-IP limit (docs/configuration.md)
      // would answer 429 past 6,000 a minute. The per-token limit (5/s) stays, and is far off.
      PING_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      HEALTH_PORT: '0',
    };
    await profiler?.prepare();
    processes.push(startServiceProcess('api', 'api', env, profiler?.nodeArgs('api')));
    for (let i = 1; i <= o.workers; i++) {
      processes.push(startServiceProcess('check-worker', `check-worker-${i}`, env, profiler?.nodeArgs(`check-worker-${i}`)));
    }
    processes.push(startServiceProcess('notifier', 'notifier', env, profiler?.nodeArgs('notifier')));
    for (let i = 0; ; i++) {
      try {
        const res = await fetch(`${api}/ping/${'x'.repeat(43)}`);
        await res.arrayBuffer();
        if (res.status === 404) break;
      } catch {
        // not up yet
      }
      if (i > 240) throw new Error('api did not come up within 60 s');
      await sleep(250);
    }
    // The check-workers drain the deadlines from their start (startHeartbeatLoop beside the
    // queue worker, services/check-worker/src/check-worker.ts): wait for every one of them, or
    // the first deadlines would be judged late for want of a worker.
    const checks = new Queue(QueueName.checks, { connection: redis, prefix });
    for (let i = 0; (await checks.getWorkersCount()) < o.workers; i++) {
      if (i > 240) throw new Error('the check-workers did not come up within 60 s');
      await sleep(250);
    }
    await checks.close();
    const usedMemoryBefore = await usedMemory(redis);

    // 1 % never pinged: every hundredth monitor (spread over the ids, as over the deadlines set).
    log(`creating ${o.monitors} heartbeat monitors`);
    const createStart = performance.now();
    const tokens = Array.from({ length: o.monitors }, () => newHeartbeatToken());
    const isLate = (i: number): boolean => i % 100 === 99;
    const rows: { id: number; i: number; heartbeat_due_at: Date; heartbeat_grace: number }[] = [];
    const BATCH = 10_000;
    for (let from = 0; from < o.monitors; from += BATCH) {
      const slice = tokens.slice(from, from + BATCH);
      const late = slice.map((_, k) => isLate(from + k));
      // The columns the API's create writes (services/api/src/monitors/monitors.service.ts,
      // newHeartbeatColumns): type heartbeat, no url, pending, the first ping due one period after creation.
      rows.push(
        ...((await ds.query(
          `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, status, type, heartbeat_period, heartbeat_grace, heartbeat_token, heartbeat_due_at)
           SELECT $1, 'hb' || (t.ord + $2 - 1), '', 30, 60, 'pending', 'heartbeat', p.period, p.grace, t.token, now() + make_interval(secs => p.period)
             FROM unnest($3::text[]) WITH ORDINALITY AS t(token, ord)
             JOIN unnest($4::bool[]) WITH ORDINALITY AS l(late, ord) USING (ord)
             CROSS JOIN LATERAL (SELECT CASE WHEN l.late THEN $5::int ELSE $6::int END AS period, CASE WHEN l.late THEN $7::int ELSE $8::int END AS grace) p
           RETURNING id, substr(name, 3)::int AS i, heartbeat_due_at, heartbeat_grace`,
          [user.id, from, slice, late, o.latePeriodSeconds, o.periodSeconds, o.lateGraceSeconds, o.graceSeconds],
        )) as typeof rows),
      );
    }
    rows.sort((a, b) => a.i - b.i);
    // Each one's deadline in the sorted set the check-workers drain (packages/queues/src/heartbeat-deadlines.ts),
    // computed by the product's heartbeatDeadline(), as the API's create and its reconciler do.
    const deadlineOf = new Map<number, number>();
    for (let from = 0; from < rows.length; from += BATCH) {
      const args: (string | number)[] = [];
      for (const r of rows.slice(from, from + BATCH)) {
        const at = heartbeatDeadline({
          heartbeatDueAt: r.heartbeat_due_at,
          heartbeatStartedAt: null,
          heartbeatGrace: r.heartbeat_grace,
        })!.getTime();
        deadlineOf.set(r.id, at);
        args.push(at, String(r.id));
      }
      await redis.zadd(heartbeatDeadlinesKey(prefix), ...args);
    }
    const createSeconds = (performance.now() - createStart) / 1000;
    const lateIds = rows.filter((r) => isLate(r.i)).map((r) => r.id);
    const pinged = rows.filter((r) => !isLate(r.i));
    const pingedTokens = pinged.map((r) => tokens[r.i]!);
    log(`created in ${createSeconds.toFixed(1)} s; pinging ${pinged.length} of them every ${o.periodSeconds} s for ${o.seconds} s`);

    // Watch the never-pinged ones: the first time each is seen offline.
    const seenOffline = new Map<number, number>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const waiting = lateIds.filter((id) => !seenOffline.has(id));
        if (waiting.length > 0) {
          const off: { id: number }[] = await ds.query(`SELECT id FROM monitors WHERE id = ANY($1) AND status = 'offline'`, [waiting]);
          const now = Date.now();
          for (const r of off) seenOffline.set(r.id, now);
        }
        await sleep(100);
      }
    })();

    const cpuBefore = new Map(processes.map((p) => [p.name, cpuSeconds(p.pid)]));
    const pgBefore = cpuSnapshot('postgres');
    const redisBefore = cpuSnapshot('redis-server');
    const selfBefore = process.cpuUsage();
    await profiler?.windowStarted();
    const latencies: number[] = [];
    const lags: number[] = [];
    let ok = 0;
    let sent = 0;
    const inFlight = new Set<Promise<void>>();
    const errorsBy: Record<string, number> = {};
    let retriedResets = 0;
    const ping = (token: string, lag: number): void => {
      lags.push(lag);
      const t = performance.now();
      const done = new Promise<void>((resolve) => {
        const send = (): void => {
          const req = http.request(`${api}/ping/${token}`, { agent, method: 'GET' }, (res) => {
            res.resume();
            res.on('end', () => {
              latencies.push(performance.now() - t);
              if (res.statusCode === 200) ok += 1;
              else errorsBy[String(res.statusCode)] = (errorsBy[String(res.statusCode)] ?? 0) + 1;
              resolve();
            });
          });
          req.on('error', (err: NodeJS.ErrnoException) => {
            // A kept-alive socket the server closed as it was reused (its keep-alive timeout):
            // sent again, as any HTTP client does; the latency counts from the first send.
            if (req.reusedSocket && err.code === 'ECONNRESET') {
              retriedResets += 1;
              send();
              return;
            }
            errorsBy[err.code ?? err.message] = (errorsBy[err.code ?? err.message] ?? 0) + 1;
            resolve();
          });
          req.end();
        };
        send();
      });
      inFlight.add(done);
      void done.then(() => inFlight.delete(done));
    };
    // Ping n goes to pinged monitor n mod P at n × period / P: each monitor once a period, all
    // of them evenly spread (the issue's ~1,700/s at 100,000 × 60 s), open loop.
    const stepMs = (o.periodSeconds * 1000) / pinged.length;
    const loadStart = performance.now();
    const endMs = o.seconds * 1000;
    for (let n = 0; ;) {
      const elapsed = performance.now() - loadStart;
      if (elapsed >= endMs) break;
      for (; n * stepMs <= elapsed && n * stepMs < endMs; n++) {
        ping(pingedTokens[n % pinged.length]!, elapsed - n * stepMs);
        sent += 1;
      }
      await sleep(2);
    }
    await Promise.all(inFlight);
    await profiler?.windowEnded();
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const self = process.cpuUsage(selfBefore);
    const apiCpuSeconds = cpuSeconds(processes[0]!.pid) - cpuBefore.get(processes[0]!.name)!;
    const answered = ok + Object.entries(errorsBy).reduce((n, [key, count]) => n + (/^\d+$/.test(key) ? count : 0), 0);
    const figuresOf = processes.map((p) => ({
      name: p.name,
      cpuPercent: Math.round(((cpuSeconds(p.pid) - cpuBefore.get(p.name)!) / loadSeconds) * 100),
      rssMb: Math.round(rssMb(p.pid)),
    }));
    figuresOf.push(
      { name: 'postgres (all backends)', cpuPercent: Math.round((groupCpuSince('postgres', pgBefore) / loadSeconds) * 100), rssMb: 0 },
      { name: 'redis-server', cpuPercent: Math.round((groupCpuSince('redis-server', redisBefore) / loadSeconds) * 100), rssMb: 0 },
      {
        name: 'load generator (this process)',
        cpuPercent: Math.round(((self.user + self.system) / 1e6 / loadSeconds) * 100),
        rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      },
    );

    // The last late deadline has passed (checked above); give the last ones a moment to be seen.
    for (let i = 0; i < 50 && seenOffline.size < lateIds.length; i++) await sleep(100);
    watching = false;
    await watcher;

    const lateOffline = [...seenOffline].map(([id, seen]) => seen - deadlineOf.get(id)!);
    const [{ false_offline: falseOffline }] = await ds.query(
      `SELECT count(DISTINCT monitor_id)::int AS false_offline FROM status_events WHERE to_status = 'offline' AND monitor_id <> ALL($1)`,
      [lateIds],
    );
    const [{ n: pingedNotOnline }] = await ds.query(
      `SELECT count(*)::int AS n FROM monitors WHERE type = 'heartbeat' AND status <> 'online' AND id <> ALL($1)`,
      [lateIds],
    );
    const [{ n: pingsRecorded, bytes: pingBytes }] = await ds.query(
      `SELECT (SELECT count(*) FROM heartbeat_pings)::int AS n, pg_total_relation_size('heartbeat_pings')::bigint AS bytes`,
    );
    const [{ bytes: monitorBytes }] = await ds.query(`SELECT pg_total_relation_size('monitors')::bigint AS bytes`);
    const results = await resultStorage(ds);
    const keysByKind = await memoryByKind(redis, prefix);
    const deadlinesBytes = Number(await redis.memory('USAGE', heartbeatDeadlinesKey(prefix), 'SAMPLES', '0'));
    const usedMemoryAfter = await usedMemory(redis);
    await ds.destroy();
    // Stopped before the report: a service that did not exit cleanly shows in it.
    const exitCodes: Record<string, number | string | null> = {};
    for (const p of processes) {
      const code = await stopServiceProcess(p, 10_000);
      exitCodes[p.name] = code ?? p.child.signalCode;
    }
    // Each process wrote its CPU profile as it exited.
    const profile = profiler?.summarise(processes);

    return {
      monitors: o.monitors,
      pinged: pinged.length,
      late: lateIds.length,
      periodSeconds: o.periodSeconds,
      graceSeconds: o.graceSeconds,
      latePeriodSeconds: o.latePeriodSeconds,
      lateGraceSeconds: o.lateGraceSeconds,
      workers: o.workers,
      seconds: Math.round(loadSeconds),
      createSeconds: round(createSeconds)!,
      pingsSent: sent,
      pingsPerSecond: round(ok / loadSeconds)!,
      targetPingsPerSecond: round(pinged.length / o.periodSeconds)!,
      pingErrors: Object.values(errorsBy).reduce((a, b) => a + b, 0),
      pingErrorsBy: errorsBy,
      retriedResets,
      pingLatencyMs: figures(latencies),
      generatorLagMs: figures(lags),
      lateOfflineMs: figures(lateOffline),
      lateSeenOffline: seenOffline.size,
      falseOffline,
      pingedNotOnline,
      pingsRecorded,
      resultsRecorded: results.results,
      redis: {
        deadlinesBytesPerMonitor: round(deadlinesBytes / o.monitors)!,
        keysByKind,
        usedMemoryDeltaPerMonitor: round((usedMemoryAfter - usedMemoryBefore) / o.monitors)!,
      },
      postgres: {
        monitorsBytesPerMonitor: round(Number(monitorBytes) / o.monitors)!,
        pingsBytesPerPing: pingsRecorded > 0 ? round(Number(pingBytes) / pingsRecorded) : null,
        resultsBytesPerResult: results.results > 0 ? round(results.bytes / results.results) : null,
      },
      processes: figuresOf,
      apiCpuMsPerPing: answered > 0 ? round((apiCpuSeconds * 1000) / answered, 3) : null,
      exitCodes,
      vacuum: { autovacuum: vacuum.autovacuum, rounds: vacuum.rounds().count, slowestRoundSeconds: round(vacuum.rounds().slowestSeconds) ?? 0 },
      ...(profile ? { profile } : {}),
    };
  } finally {
    await vacuum?.stop();
    await profiler?.close();
    agent.destroy();
    // Only those still running: one stopped above by a signal has a null exitCode, and its
    // 'exit' event, which stopServiceProcess would wait for, has already gone by.
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) await stopServiceProcess(p, 10_000);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    await redis.quit();
    if (!process.env.BENCH_KEEP) {
      const admin = new Client({ connectionString: new URL('/postgres', dbUrl).toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbUrl.pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
    } else log(`kept database ${databaseUrl}`);
  }
}

async function usedMemory(redis: IORedis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
}

/**
 * MEMORY USAGE of every key of the run, grouped by what follows the prefix with ids and tokens
 * taken out (`heartbeat:deadlines`, `bull:checks:*`, `ping-rate:*`...).
 */
async function memoryByKind(redis: IORedis, prefix: string): Promise<Record<string, { keys: number; bytes: number }>> {
  const byKind: Record<string, { keys: number; bytes: number }> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const k of keys) pipeline.memory('USAGE', k, 'SAMPLES', '0');
    const sizes = (await pipeline.exec()) ?? [];
    keys.forEach((k, i) => {
      const kind = k
        .slice(prefix.length + 1)
        .split(':')
        .map((part) => (part.length >= 20 ? '*' : part.replace(/\d+/g, '*')))
        .join(':');
      const entry = (byKind[kind] ??= { keys: 0, bytes: 0 });
      entry.keys += 1;
      entry.bytes += Number(sizes[i]?.[1] ?? 0);
    });
  } while (cursor !== '0');
  return byKind;
}
