import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, jsonLogLines, waitFor } from '@uptime/testing';
import { isAlive } from '../../src/local/reachable';

/**
 * `pnpm start` and `pnpm cli` run as a person runs them from a checkout, on a machine where
 * nothing answers at the default addresses: what services/all-in-one/test/first-run.test.ts and
 * first-run-private-clone.test.ts share.
 */

/** A `pnpm start` run: its JSON log lines, its stderr, and its exit. */
export interface StartRun {
  child: ChildProcess;
  logs: Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
}

export function pnpmStart(checkout: string, env: NodeJS.ProcessEnv): StartRun {
  // Its own process group, so a test that fails half-way can stop pnpm, sh and node together.
  const child = spawn('pnpm', ['start'], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const logs = jsonLogLines(child, 'pnpm start');
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, logs, stderr: () => stderr, exited };
}

/** Waits for the banner of `run`; fails at once with its stderr when it exits first. */
export async function readyRun(run: StartRun): Promise<StartRun> {
  await waitFor(
    () => {
      if (run.child.exitCode !== null) throw new Error(`pnpm start exited ${run.child.exitCode}: ${run.stderr()}`);
      return run.logs.some((l) => String(l.msg).startsWith('uptime is ready'));
    },
    { timeoutMs: 120_000, intervalMs: 250, what: 'pnpm start to be ready' },
  );
  return run;
}

export const pidIn = (file: string): number | undefined => (existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined);

export const alive = (pid: number | undefined): boolean => pid !== undefined && pid > 0 && isAlive(pid);

/** SIGTERM to the service process (its pid is in the data folder), as systemd or a Ctrl+C would. */
export async function stopRun(run: StartRun, dataDir: string): Promise<number | null> {
  process.kill(pidIn(path.join(dataDir, 'owner.pid'))!, 'SIGTERM');
  return run.exited;
}

/** Kills what a failed test left running: its `pnpm start` groups, then the data folder's servers. */
export async function killLeftovers(runs: StartRun[], dataDir: string): Promise<void> {
  for (const run of runs.splice(0)) {
    if (run.child.exitCode === null) {
      try {
        process.kill(-run.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const [file, signal] of [
    [path.join(dataDir, 'postgres/postmaster.pid'), 'SIGINT'],
    [path.join(dataDir, 'redis/redis.pid'), 'SIGTERM'],
  ] as const) {
    const pid = pidIn(file);
    if (alive(pid)) process.kill(pid!, signal);
    await waitFor(() => !alive(pid), { timeoutMs: 20_000, what: `${file} to stop` });
  }
}

/**
 * A folder anyone may enter, for what the embedded PostgreSQL keeps outside a data folder its
 * `postgres` user cannot reach (EMBEDDED_POSTGRES_DIR): each test file its own, never the
 * machine's /var/lib/uptime-postgres.
 */
export function tempEmbeddedPostgresDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'uptime-embedded-pg-'));
  chmodSync(dir, 0o755);
  return path.join(dir, 'home');
}

/**
 * The environment of a machine where nothing answers at the default addresses: DATABASE_URL and
 * REDIS_URL unset (the suite sets them), and the defaults pointed at closed ports through the
 * test-only variables (docs/configuration.md). `dataDir` undefined: the checkout's `.data/`.
 */
export async function bareMachineEnv(
  { dataDir, embeddedPostgresDir }: { dataDir?: string; embeddedPostgresDir: string },
  extra: NodeJS.ProcessEnv = {},
): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'SENDGRID_API_KEY', 'SMTP_URL', 'DATA_DIR']) delete env[key];
  return {
    ...env,
    TEST_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/uptime`,
    TEST_DEFAULT_REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    EMBEDDED_POSTGRES_DIR: embeddedPostgresDir,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ...extra,
  };
}

/** `pnpm <script> …` as a person types it in a second terminal: its output, or a thrown error. */
export function pnpmRun(checkout: string, env: NodeJS.ProcessEnv, script: 'cli' | 'db:migrate', ...args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync('pnpm', ['--silent', script, ...args], { cwd: checkout, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pnpm ${script} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { stdout: result.stdout.trim(), stderr: result.stderr };
}

/**
 * Steps 1 and 2 of docs/operations.md, "Moving its data to a standalone PostgreSQL", run as
 * written from the folder that holds the data folder `.data`: pg_dump of the running embedded
 * database, pg_restore into a new database on the machine's PostgreSQL (the suite's
 * DATABASE_URL's server). Returns the monitors' names found there; drops it after.
 */
export function monitorsAfterMovingTheData(dataDir: string): string[] {
  const standalone = new URL(process.env.DATABASE_URL!);
  const database = `uptime_moved_${process.pid}`;
  const server = ['-h', standalone.hostname, '-p', standalone.port || '5432', '-U', decodeURIComponent(standalone.username) || 'postgres'];
  const dump = mkdtempSync(path.join(tmpdir(), 'uptime-dump-'));
  const run = (command: string, args: string[], extra: NodeJS.ProcessEnv = {}): string =>
    execFileSync(command, args, { cwd: dump, env: { ...process.env, PGPASSWORD: standalone.password, ...extra }, encoding: 'utf8' });
  run(
    'bash',
    ['-c', 'PORT=$(sed -n 4p "$DATA/postgres/postmaster.pid"); PGPASSWORD=$(cat "$DATA/postgres.password") pg_dump -h 127.0.0.1 -p "$PORT" -U postgres --format=custom --file uptime.dump uptime'],
    { DATA: dataDir },
  );
  run('createdb', [...server, database]);
  try {
    run('pg_restore', [...server, '--dbname', database, '--no-owner', path.join(dump, 'uptime.dump')]);
    return run('psql', [...server, '-d', database, '-At', '-c', 'SELECT name FROM monitors ORDER BY id']).trim().split('\n');
  } finally {
    run('dropdb', [...server, database]);
    rmSync(dump, { recursive: true, force: true });
  }
}
