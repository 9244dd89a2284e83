import { Session } from 'node:inspector/promises';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import type { DataSource } from '@uptime/db';
import { summariseCpuProfile, type CpuProfile } from './capacity/cpuprofile-summary';
import { cpuSeconds } from './capacity/process-stats';
import { commandStatsBetween, parseCommandStats, parseCpuSeconds, type CommandStat } from './capacity/redis-commandstats';
import { collapse } from './hot-queries/harness';

type QueryRunner = ReturnType<DataSource['createQueryRunner']>;

interface Snapshot {
  process: NodeJS.CpuUsage;
  backends: Map<number, number>;
  redisCpu: number;
  redisCommands: Map<string, CommandStat>;
  commits: number;
  at: number;
}

/** What a burst of creates cost, per create, and the profile when one was taken. */
export interface CreateCost {
  text: string;
  profile?: CpuProfile;
}

// A statement's shape: its text without the numbered placeholders' list lengths that vary by batch.
const shapeOf = (sql: string): string => {
  const flat = collapse(sql).replace(/\(\$\d+(, \$\d+)*\)(, \(\$\d+(, \$\d+)*\))*/g, '($…)');
  return flat.length > 150 ? `${flat.slice(0, 149)}…` : flat;
};

/**
 * The cost of the creates between start() and stop(), by counters the machine's load does not
 * change: CPU seconds of this process (process.cpuUsage) and of this database's backends (from
 * /proc), Redis's `used_cpu_*` and `INFO commandstats`, committed transactions
 * (pg_stat_database), and every statement this process's data source ran, by shape.
 */
export class CreateCostMeter {
  private readonly pg: Client;
  private readonly statements = new Map<string, number>();
  private counting = false;
  private before?: Snapshot;
  private session?: Session;

  constructor(
    ds: DataSource,
    databaseUrl: string,
    private readonly redis: Redis,
  ) {
    this.pg = new Client({ connectionString: databaseUrl });
    const create = ds.createQueryRunner.bind(ds);
    ds.createQueryRunner = (mode): QueryRunner => {
      const runner = create(mode);
      const original = runner.query.bind(runner) as (sql: string, params?: unknown[], structured?: boolean) => Promise<never>;
      runner.query = (sql: string, params?: unknown[], structured?: boolean): Promise<never> => {
        if (this.counting) {
          const shape = shapeOf(sql);
          this.statements.set(shape, (this.statements.get(shape) ?? 0) + 1);
        }
        return original(sql, params, structured);
      };
      return runner;
    };
  }

  private async snapshot(): Promise<Snapshot> {
    const pids = (
      await this.pg.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      )
    ).rows;
    const [{ commits }] = (
      await this.pg.query<{ commits: string }>(`SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()`)
    ).rows as [{ commits: string }];
    return {
      process: process.cpuUsage(),
      backends: new Map(pids.map(({ pid }) => [pid, cpuSeconds(pid)])),
      redisCpu: parseCpuSeconds(await this.redis.info('cpu')),
      redisCommands: parseCommandStats(await this.redis.info('commandstats')),
      commits: Number(commits),
      at: performance.now(),
    };
  }

  async start(profile: boolean): Promise<void> {
    await this.pg.connect();
    // pg_stat_database is read from a snapshot taken once per transaction: each read sees now.
    await this.pg.query(`SET stats_fetch_consistency = none`);
    if (profile) {
      this.session = new Session();
      this.session.connect();
      await this.session.post('Profiler.enable');
      await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
      await this.session.post('Profiler.start');
    }
    this.statements.clear();
    this.counting = true;
    this.before = await this.snapshot();
  }

  async stop(creates: number): Promise<CreateCost> {
    this.counting = false;
    // The statistics collector is told of commits when a backend goes idle, at most twice a second.
    await new Promise((r) => setTimeout(r, 1100));
    const after = await this.snapshot();
    const before = this.before!;
    const profile = this.session ? ((await this.session.post('Profiler.stop')) as { profile: CpuProfile }).profile : undefined;
    this.session?.disconnect();
    const ms = (seconds: number): string => ((seconds * 1000) / creates).toFixed(2);
    const api = (after.process.user - before.process.user + after.process.system - before.process.system) / 1e6;
    const backends = [...after.backends].reduce((sum, [pid, s]) => sum + s - (before.backends.get(pid) ?? 0), 0);
    const redisCpu = after.redisCpu - before.redisCpu;
    const seconds = (after.at - before.at) / 1000;
    const commands = commandStatsBetween(before.redisCommands, after.redisCommands, seconds, 8);
    const statementCount = [...this.statements.values()].reduce((a, b) => a + b, 0);
    const lines = [
      `CPU ms per create: api process ${ms(api)}, Postgres backends ${ms(backends)} (${after.backends.size} of them), Redis server ${ms(redisCpu)}; ` +
        `total ${ms(api + backends + redisCpu)}`,
      `per create: ${(statementCount / creates).toFixed(2)} statements, ${((after.commits - before.commits) / creates).toFixed(2)} transactions committed, ` +
        `${(commands.reduce((a, c) => a + c.calls, 0) / creates).toFixed(2)} Redis commands`,
      'statements per create:',
      ...[...this.statements].sort((a, b) => b[1] - a[1]).map(([sql, calls]) => `  ${(calls / creates).toFixed(3).padStart(7)}  ${sql}`),
      'Redis commands per create (µs each):',
      ...commands.map((c) => `  ${(c.calls / creates).toFixed(3).padStart(7)}  ${c.command} (${c.usecPerCall})`),
    ];
    if (profile) {
      const summary = summariseCpuProfile(profile, { root: process.cwd(), top: 25 });
      lines.push(`api process profile: ${summary.busyMs} ms busy of ${summary.sampledMs} ms sampled; by area:`);
      lines.push(...summary.areas.slice(0, 12).map((a) => `  ${a.percent.toFixed(1).padStart(5)} %  ${a.area}`));
      lines.push('costliest functions (self):');
      lines.push(...summary.top.map((f) => `  ${f.percent.toFixed(1).padStart(5)} %  ${f.functionName} ${f.location}`));
    }
    return { text: lines.join('\n'), profile };
  }

  async close(): Promise<void> {
    await this.pg.end().catch(() => undefined);
  }
}
