import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import IORedis from 'ioredis';
import { createDataSource, ensureDatabaseExists, runMigrations } from '@uptime/db';
// Relative imports: the root package depends on no service; the bench uses their own code.
import { PingBatcher, type PingBatchTiming } from '../services/api/src/heartbeats/ping-batcher';
import { newHeartbeatToken } from '../services/api/src/monitors/heartbeat-token';
import { quantile } from './capacity/percentiles';

/**
 * pnpm bench:ping-batcher [--rate 400] [--seconds 20] [--monitors 2000] [--in-flight 2,4,8] [--max-batch 250]
 *
 * Where a ping's time goes in the API's group commit (services/api/src/heartbeats/ping-batcher.ts),
 * without HTTP: an open-loop generator submits pings to a PingBatcher at `--rate` a second, evenly
 * spread, against a database and queue prefix of its own, once per batches-in-flight cap given.
 * Prints per setting: the latency from submit to answer (p50 / p99 / max), how a batch's time splits
 * (queued for a turn or a batch in flight, the Redis script, the INSERT with its commit), the
 * batch sizes, and this process's CPU per ping (process CPU time over the window, so the figure
 * holds on a loaded machine, where the latency does not; figures in docs/capacity.md,
 * "Pipelined ping batches"). Drops its database and keys at the end.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '400' },
      seconds: { type: 'string', default: '20' },
      monitors: { type: 'string', default: '2000' },
      'in-flight': { type: 'string', default: '2,4,8' },
      'max-batch': { type: 'string', default: '250' },
    },
  });
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const monitors = Number(values.monitors);
  const maxBatch = Number(values['max-batch']);
  const caps = values['in-flight'].split(',').map(Number);
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const dbUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  dbUrl.pathname = `/uptime_bench_pb_${runId}`;
  const prefix = `uptime_bench_pb_${runId}`;
  const redis = new IORedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  await ensureDatabaseExists(dbUrl.toString());
  // The API's pool: the batches in flight take their connections from it.
  const ds = createDataSource(dbUrl.toString(), { poolSize: 10 });
  await ds.initialize();
  try {
    await runMigrations(ds, dbUrl.toString());
    const [user] = await ds.query(`INSERT INTO users (email, name) VALUES ('bench@example.test', 'Bench') RETURNING id`);
    const tokens = Array.from({ length: monitors }, () => newHeartbeatToken());
    // The columns the API's create writes (services/api/src/monitors/monitors.service.ts).
    await ds.query(
      `INSERT INTO monitors (owner_id, name, url, timeout, check_interval, status, type, heartbeat_period, heartbeat_grace, heartbeat_token, heartbeat_due_at)
       SELECT $1, 'hb' || ord, '', 30, 60, 'pending', 'heartbeat', 60, 30, token, now() + interval '60 seconds' FROM unnest($2::text[]) WITH ORDINALITY AS t(token, ord)`,
      [user.id, tokens],
    );
    console.log(
      `${rate} pings/s for ${seconds} s over ${monitors} heartbeats, batches of at most ${maxBatch}; latency on a shared machine, CPU per ping is what holds`,
    );
    console.log(
      'in flight | pings | latency p50 / p99 / max ms | queued p50 / p99 | script p50 / p99 | insert p50 / p99 | batch size p50 / max | CPU ms a ping',
    );
    for (const cap of caps) {
      const line = await runOnce({ ds, redis, prefix, tokens, rate, seconds, cap, maxBatch });
      console.log(line);
      // The inbox the pings filled: each run starts from the same table.
      await ds.query('TRUNCATE heartbeat_ping_inbox, heartbeat_pings');
    }
  } finally {
    await ds.destroy();
    for (let cursor = '0'; ;) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      if ((cursor = next) === '0') break;
    }
    await redis.quit();
    const admin = new URL(dbUrl);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${dbUrl.pathname.slice(1)}" WITH (FORCE)`);
    await client.end();
  }
}

async function runOnce(o: {
  ds: ReturnType<typeof createDataSource>;
  redis: IORedis;
  prefix: string;
  tokens: string[];
  rate: number;
  seconds: number;
  cap: number;
  maxBatch: number;
}): Promise<string> {
  const timings: PingBatchTiming[] = [];
  const batcher = new PingBatcher({
    ds: o.ds,
    redis: o.redis,
    prefix: o.prefix,
    maxInFlight: o.cap,
    maxBatch: o.maxBatch,
    observe: (t) => timings.push(t),
  });
  const latencies: number[] = [];
  const total = Math.round(o.rate * o.seconds);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const answers: Promise<void>[] = [];
  // Open loop: each ping leaves at its planned time (or as soon after as the loop is free); its
  // latency counts from that time, so a stalled loop shows in it.
  for (let sent = 0; sent < total;) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * o.rate) + 1);
    for (; sent < due; sent++) {
      const planned = start + (sent / o.rate) * 1000;
      const token = o.tokens[sent % o.tokens.length]!;
      answers.push(
        batcher
          .submit({
            token,
            ip: '127.0.0.1',
            input: {
              token,
              kind: 'success',
              exitStatus: null,
              sourceIp: '127.0.0.1',
              userAgent: 'bench',
              body: null,
              bodySize: 0,
              bodyTruncated: false,
            },
          })
          .then(() => {
            latencies.push(performance.now() - planned);
          }),
      );
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(answers);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerPing = (cpu.user + cpu.system) / 1000 / total;
  const f = (xs: number[], q: number): string => (quantile(xs, q) ?? 0).toFixed(1);
  const pick = (k: keyof PingBatchTiming): number[] => timings.map((t) => t[k]);
  return [
    String(o.cap).padStart(9),
    String(total).padStart(5),
    `${f(latencies, 0.5)} / ${f(latencies, 0.99)} / ${Math.max(...latencies).toFixed(1)}`.padStart(26),
    `${f(pick('queuedMs'), 0.5)} / ${f(pick('queuedMs'), 0.99)}`.padStart(16),
    `${f(pick('countMs'), 0.5)} / ${f(pick('countMs'), 0.99)}`.padStart(16),
    `${f(pick('insertMs'), 0.5)} / ${f(pick('insertMs'), 0.99)}`.padStart(16),
    `${f(pick('pings'), 0.5)} / ${Math.max(...pick('pings'))}`.padStart(20),
    cpuMsPerPing.toFixed(3).padStart(13),
  ].join(' | ');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
