import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import IORedis from 'ioredis';
import { summariseCpuProfile, type CpuProfile, type CpuProfileSummary } from './cpuprofile-summary';
import { StatementStats, type PostgresProfile } from './pg-statements';
import {
  commandStatsBetween,
  parseCommandStats,
  parseCpuSeconds,
  SCRIPT_COMMANDS,
  type CommandStat,
  type RedisCommandFigure,
} from './redis-commandstats';

export interface ThreadProfile {
  file: string;
  /** `main`, or `thread N` (tsx's module loader hooks run on a thread of their own). */
  thread: string;
  /** What the file spans: the thread's whole life. */
  lifeSeconds: number;
  /** False when the window lay outside the profile (then the summary is of the whole life). */
  windowed: boolean;
  summary: CpuProfileSummary;
}

export interface ProcessProfile {
  name: string;
  pid: number;
  threads: ThreadProfile[];
}

export interface ProfileReport {
  dir: string;
  intervalUs: number;
  windowSeconds: number;
  /** The window on the monotonic clock of the profiles (µs), to summarise them again. */
  windowUs: { fromUs: number; toUs: number };
  cpu: ProcessProfile[];
  redis: { seconds: number; cpuSeconds: number; scriptUsec: number; commands: RedisCommandFigure[] };
  postgres: PostgresProfile;
}

export interface ProfilerOptions {
  dir: string;
  /** V8's sampling interval; each sample costs the profiled process CPU. */
  intervalUs: number;
  databaseUrl: string;
  redisUrl: string;
  /** The repository root, to name areas of the CPU profiles. */
  root: string;
  log: (line: string) => void;
}

// The clock of V8's profiles too (CLOCK_MONOTONIC), so the window can be cut out of them.
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * `bench:capacity --profile <dir>`: V8 CPU profiles of every service process, Redis
 * `INFO commandstats` and Postgres `pg_stat_statements` over the measured window.
 */
export class CapacityProfiler {
  private redis?: IORedis;
  private readonly statements: StatementStats;
  private window = { fromUs: 0, toUs: 0, redisAt: 0 };
  private redisBefore = { stats: new Map<string, CommandStat>(), cpu: 0 };
  private redisFigures: ProfileReport['redis'] = { seconds: 0, cpuSeconds: 0, scriptUsec: 0, commands: [] };
  private postgres: PostgresProfile = { enabled: false, note: 'not read' };

  constructor(private readonly o: ProfilerOptions) {
    this.statements = new StatementStats(o.databaseUrl);
  }

  /**
   * Node options for a service process. `--cpu-prof` writes the profile when the process exits
   * (process.exit after a graceful SIGTERM included, not on SIGKILL) and spans its whole life; the
   * summary counts only the window, whose times are read on the same monotonic clock.
   */
  nodeArgs(name: string): string[] {
    return ['--cpu-prof', '--cpu-prof-interval', String(this.o.intervalUs), '--cpu-prof-dir', path.join(this.o.dir, name)];
  }

  /** Before the services start: the bench database gets pg_stat_statements if the server loads it. */
  async prepare(): Promise<void> {
    mkdirSync(this.o.dir, { recursive: true });
    await this.statements.prepare();
  }

  async windowStarted(): Promise<void> {
    this.redis = new IORedis(this.o.redisUrl);
    await this.statements.reset();
    this.redisBefore = await this.readRedis();
    this.window.redisAt = performance.now();
    this.window.fromUs = nowUs();
  }

  async windowEnded(): Promise<void> {
    this.window.toUs = nowUs();
    const after = await this.readRedis();
    const seconds = (performance.now() - this.window.redisAt) / 1000;
    const before = this.redisBefore.stats;
    const scriptUsec = SCRIPT_COMMANDS.reduce((sum, c) => sum + (after.stats.get(c)?.usec ?? 0) - (before.get(c)?.usec ?? 0), 0);
    this.redisFigures = {
      seconds: Math.round(seconds * 10) / 10,
      cpuSeconds: Math.round((after.cpu - this.redisBefore.cpu) * 100) / 100,
      scriptUsec,
      commands: commandStatsBetween(before, after.stats, seconds),
    };
    this.postgres = await this.statements.read(seconds);
    await this.close();
  }

  /** After the processes have exited (their profiles are written on exit): summarise and write summary.json. */
  summarise(processes: { name: string; pid: number }[]): ProfileReport {
    const report: ProfileReport = {
      dir: this.o.dir,
      intervalUs: this.o.intervalUs,
      windowSeconds: Math.round((this.window.toUs - this.window.fromUs) / 1e5) / 10,
      windowUs: { fromUs: this.window.fromUs, toUs: this.window.toUs },
      cpu: processes.map((p) => ({ name: p.name, pid: p.pid, threads: this.threadProfiles(p) })),
      redis: this.redisFigures,
      postgres: this.postgres,
    };
    writeFileSync(path.join(this.o.dir, 'summary.json'), `${JSON.stringify(report, null, 2)}\n`);
    return report;
  }

  async close(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
    await this.statements.close();
    this.redis = undefined;
  }

  private async readRedis(): Promise<{ stats: Map<string, CommandStat>; cpu: number }> {
    const stats = parseCommandStats(await this.redis!.info('commandstats'));
    return { stats, cpu: parseCpuSeconds(await this.redis!.info('cpu')) };
  }

  /** The process's .cpuprofile files (named CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile). */
  private threadProfiles(p: { name: string; pid: number }): ThreadProfile[] {
    const dir = path.join(this.o.dir, p.name);
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[3] === String(p.pid));
    } catch {
      this.o.log(`no CPU profile directory for ${p.name}`);
    }
    return files.sort().map((file) => {
      const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
      const tid = file.split('.')[4];
      const windowed = profile.startTime < this.window.toUs && profile.endTime > this.window.fromUs;
      const window = windowed ? { fromUs: this.window.fromUs, toUs: this.window.toUs } : undefined;
      return {
        file: path.join(p.name, file),
        thread: tid === '0' ? 'main' : `thread ${tid}`,
        lifeSeconds: Math.round((profile.endTime - profile.startTime) / 1e5) / 10,
        windowed,
        summary: summariseCpuProfile(profile, { root: this.o.root, window }),
      };
    });
  }
}
