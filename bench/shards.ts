import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import IORedis from 'ioredis';
import { Client } from 'pg';
import { generateApiToken, hashApiToken, openDatabase } from '@uptime/db';
import { checkShardOf, firstSlotAfter, offsetOf } from '@uptime/queues';
import { startRedisServer, type RedisServer } from '@uptime/testing';
import { startCountingTarget } from './capacity/counting-target';
import { cpuSeconds } from './capacity/process-stats';
import { parseCpuSeconds } from './capacity/redis-commandstats';
import { createThroughApi, dropRun } from './capacity/run-capacity';
import { startServiceProcess, stopServiceProcess, type ServiceProcess } from './capacity/service-processes';
import { benchServiceEnv } from './service-env';

/**
 * pnpm bench:shards [--monitors 3000] [--interval 30] [--seconds 120] [--shards 3]
 *
 * The checks queue spread over shards (docs/scaling.md), simulated on this machine: a
 * redis-server per shard (free ports, killed at the end), a database of its own, the api and one
 * check-worker per shard owning it (CHECK_WORKER_SHARDS), `--monitors` http monitors of a
 * loopback target at `--interval`. After one interval of warm-up it measures for `--seconds`,
 * and kills the owner of shard 1 with SIGKILL at the middle of that window. It prints per shard
 * the checks recorded per second, each Redis server's CPU (its INFO cpu: CPU seconds, not
 * latency, so a loaded machine does not inflate it) and ops/s, and the CPU per check of each
 * Redis; the slots lost (no result) and the slots probed twice, compared with every monitor's
 * expected slots as bench/capacity does; and how long after the kill another worker took shard 1
 * over and ran its first check.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      monitors: { type: 'string', default: '3000' },
      interval: { type: 'string', default: '30' },
      seconds: { type: 'string', default: '120' },
      shards: { type: 'string', default: '3' },
    },
  });
  const monitors = Number(values.monitors);
  const intervalS = Number(values.interval);
  const windowS = Number(values.seconds);
  const shardCount = Number(values.shards);
  if (shardCount < 2) throw new Error('--shards: at least 2 (shard 1 is the one whose worker is killed)');
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);

  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const baseDatabaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbUrl = new URL(baseDatabaseUrl);
  dbUrl.pathname = `/uptime_bench_${runId}`;
  const databaseUrl = dbUrl.toString();
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `uptime_bench_${runId}`;
  const servers: RedisServer[] = [];
  const processes: ServiceProcess[] = [];
  const target = await startCountingTarget();
  try {
    for (let i = 0; i < shardCount; i++) servers.push(await startRedisServer());
    log(`shards on ${servers.map((s) => s.url).join(', ')}`);
    const ds = await openDatabase(databaseUrl, { poolSize: 2 });
    const token = generateApiToken();
    const [user] = (await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`)) as { id: number }[];
    await ds.query(`INSERT INTO api_tokens (user_id, name, token_hash) VALUES ($1, 'bench', $2)`, [user!.id, hashApiToken(token)]);
    await ds.destroy();
    const auth = `Bearer ${token}`;
    const port = 20000 + Math.floor(Math.random() * 20000);
    const api = `http://127.0.0.1:${port}`;
    const env = {
      ...benchServiceEnv({ databaseUrl, redisUrl, prefix }),
      CHECK_SHARDS: servers.map((s) => s.url).join(','),
      PORT: String(port),
      HOST: '127.0.0.1',
      MIN_CHECK_INTERVAL_SECONDS: '1',
      ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'warn',
      HEALTH_PORT: '0',
    };
    processes.push(startServiceProcess('api', 'api', env));
    // What the workers say about shards (warnings): when one took shard 1 over.
    const takeovers: { at: number; by: string }[] = [];
    const workers = servers.map((_, i) => {
      const worker = startServiceProcess('check-worker', `check-worker-${i}`, { ...env, CHECK_WORKER_SHARDS: String(i) });
      createInterface({ input: worker.child.stdout! }).on('line', (line) => {
        if (line.includes('taking it over') && line.includes('"shard":1')) takeovers.push({ at: Date.now(), by: worker.name });
      });
      processes.push(worker);
      return worker;
    });
    await waitForApi(api, auth);

    log(`creating ${monitors} monitors at ${intervalS} s`);
    const ids: number[] = [];
    for (let i = 0; i < monitors; i += 100) {
      const bodies = Array.from({ length: Math.min(100, monitors - i) }, (_, k) => ({
        name: `m${i + k}`,
        type: 'http',
        url: `${target.url}/m/${i + k}`,
        check_interval: intervalS,
        timeout: 10,
        retry_count: 0,
      }));
      ids.push(...(await createThroughApi(`${api}/api/v1/monitors/bulk/create`, auth, { monitors: bodies })));
    }
    log(`warming up for one interval and a half`);
    await sleep(intervalS * 1500);

    const redisBefore = await Promise.all(servers.map((s) => redisFigures(s.url)));
    const workerCpuBefore = workers.map((w) => cpuSeconds(w.pid));
    const windowStart = Date.now();
    log(`measuring for ${windowS} s; the owner of shard 1 is killed at ${windowS / 2} s`);
    await sleep((windowS / 2) * 1000);
    const victim = workers[1]!;
    const victimCpu = cpuSeconds(victim.pid);
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    // Dead: nothing left to stop (stopServiceProcess waits for an exit that has happened).
    processes.splice(processes.indexOf(victim), 1);
    await sleep(windowS * 1000 - (killedAt - windowStart));
    const windowEnd = Date.now();
    const seconds = (windowEnd - windowStart) / 1000;
    const redisAfter = await Promise.all(servers.map((s) => redisFigures(s.url)));
    const workerCpu = workers.map((w, i) => (w === victim ? victimCpu : cpuSeconds(w.pid)) - workerCpuBefore[i]!);
    // The checks of the window's last interval may still be in their batch: they finish first.
    await sleep(intervalS * 1000 + 2000);
    for (const p of [...processes].reverse()) await stopServiceProcess(p);
    processes.length = 0;

    const figures = await slotFigures({ databaseUrl, ids, intervalS, shardCount, windowStart, windowEnd, hits: target.hits, killedAt });
    const perShard = servers.map((_, i) => {
      const cpu = redisAfter[i]!.cpu - redisBefore[i]!.cpu;
      const checks = figures.recordedPerShard[i]!;
      return {
        shard: i,
        monitors: ids.filter((id) => checkShardOf(id, shardCount) === i).length,
        checksPerSecond: round(checks / seconds),
        redisCpuPercent: round((cpu / seconds) * 100),
        redisOpsPerSecond: Math.round((redisAfter[i]!.commands - redisBefore[i]!.commands) / seconds),
        redisCpuMsPerCheck: checks > 0 ? Math.round((cpu / checks) * 1e6) / 1000 : null,
        workerCpuPercent: round((workerCpu[i]! / (i === 1 ? (killedAt - windowStart) / 1000 : seconds)) * 100),
      };
    });
    const takeover = takeovers[0];
    const report = {
      monitors,
      intervalS,
      windowS: round(seconds),
      shards: perShard,
      expectedSlots: figures.expected,
      lostSlots: figures.lost,
      doubledSlots: figures.doubled,
      takeoverDelayS: takeover ? round((takeover.at - killedAt) / 1000) : null,
      takenOverBy: takeover?.by ?? null,
      firstShard1CheckAfterKillS: figures.firstShard1AfterKillMs === null ? null : round(figures.firstShard1AfterKillMs / 1000),
    };
    console.table(perShard);
    console.log(
      `expected slots ${report.expectedSlots}, lost ${report.lostSlots}, probed twice ${report.doubledSlots}; shard 1 taken over ${report.takeoverDelayS} s after the kill by ${report.takenOverBy}, its first check ${report.firstShard1CheckAfterKillS} s after the kill`,
    );
    console.log(JSON.stringify(report));
  } finally {
    for (const p of processes) await stopServiceProcess(p, 5000);
    await target.close();
    for (const s of servers) await s.stop();
    await dropRun(baseDatabaseUrl, databaseUrl, redisUrl, prefix).catch((err: unknown) => log(`cleanup: ${String(err)}`));
  }
}

async function waitForApi(api: string, auth: string): Promise<void> {
  for (let i = 0; i < 480; i++) {
    const ok = await fetch(`${api}/api/v1/monitors?limit=1`, { headers: { authorization: auth } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error('api did not come up within 120 s');
}

/** A Redis server's CPU seconds (INFO cpu) and commands processed so far (INFO stats). */
async function redisFigures(url: string): Promise<{ cpu: number; commands: number }> {
  const redis = new IORedis(url);
  try {
    const info = await redis.info();
    return { cpu: parseCpuSeconds(info), commands: Number(/^total_commands_processed:(\d+)/m.exec(info)?.[1] ?? 0) };
  } finally {
    await redis.quit();
  }
}

/**
 * Every monitor's slots due in the window (its offset grid, the last interval left out: its
 * check may still have been running) against its results in Postgres and the target's hits: a
 * slot without a result is lost; a slot the target saw probed more than once was doubled (a
 * killed check re-run counts here too: its first probe's answer was never recorded).
 */
async function slotFigures(o: {
  databaseUrl: string;
  ids: number[];
  intervalS: number;
  shardCount: number;
  windowStart: number;
  windowEnd: number;
  hits: Map<number, number[]>;
  killedAt: number;
}): Promise<{ expected: number; lost: number; doubled: number; recordedPerShard: number[]; firstShard1AfterKillMs: number | null }> {
  const pg = new Client({ connectionString: o.databaseUrl });
  await pg.connect();
  const rows = (
    await pg.query(
      `SELECT monitor_id, array_agg((extract(epoch FROM scheduled_at) * 1000)::bigint) AS slots,
              array_agg((extract(epoch FROM scheduled_at) * 1000)::bigint + start_lag_ms) AS started
         FROM check_results WHERE scheduled_at >= $1 AND scheduled_at < $2 GROUP BY monitor_id`,
      [new Date(o.windowStart), new Date(o.windowEnd)],
    )
  ).rows as { monitor_id: number; slots: string[]; started: string[] }[];
  await pg.end();
  const slotsOf = new Map(rows.map((r) => [r.monitor_id, new Set(r.slots.map(Number))]));
  const recordedPerShard = new Array<number>(o.shardCount).fill(0);
  let firstShard1AfterKillMs: number | null = null;
  for (const r of rows) {
    const shard = checkShardOf(r.monitor_id, o.shardCount);
    recordedPerShard[shard]! += r.slots.length;
    if (shard !== 1) continue;
    for (const started of r.started.map(Number))
      if (started > o.killedAt && (firstShard1AfterKillMs === null || started - o.killedAt < firstShard1AfterKillMs)) firstShard1AfterKillMs = started - o.killedAt;
  }
  const every = o.intervalS * 1000;
  let expected = 0;
  let lost = 0;
  let doubled = 0;
  o.ids.forEach((id, index) => {
    const recorded = slotsOf.get(id) ?? new Set<number>();
    const hits = o.hits.get(index) ?? [];
    for (let slot = firstSlotAfter(o.windowStart, every, offsetOf(id, o.intervalS)); slot < o.windowEnd - every; slot += every) {
      expected += 1;
      if (!recorded.has(slot)) lost += 1;
      if (hits.filter((t) => t >= slot && t < slot + every).length > 1) doubled += 1;
    }
  });
  return { expected, lost, doubled, recordedPerShard, firstShard1AfterKillMs };
}

const round = (v: number): number => Math.round(v * 10) / 10;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
