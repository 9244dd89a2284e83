import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
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

/** The `postgres` user's ids, or undefined when there is no such user. */
/**
 * As root, where the embedded PostgreSQL's binaries and cluster go when its `postgres` user cannot
 * reach them in the repository or DATA_DIR (EMBEDDED_POSTGRES_DIR; docs/operations.md). Not
 * /var/lib/uptime, which belongs to the system service's user (deploy/systemd/uptime.service).
 */
export const DEFAULT_EMBEDDED_POSTGRES_DIR = '/var/lib/uptime-postgres';

type Ids = { uid: number; gid: number };

/** The `postgres` user's ids, or undefined when there is no such user. */
function postgresUser(): Ids | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
      gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    };
  } catch {
    return undefined;
  }
}

/**
 * Whom the server runs as: this process's user, or, as root, `postgres` (PostgreSQL refuses to
 * run as root), made a system user without a home when the machine has none.
 */
function runAs(): Ids | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = postgresUser();
  if (existing) return existing;
  try {
    execFileSync('groupadd', ['--system', USER], { stdio: 'pipe' });
    execFileSync('useradd', ['--system', '--gid', USER, '--no-create-home', '--shell', '/usr/sbin/nologin', USER], { stdio: 'pipe' });
  } catch (err) {
    const detail = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err instanceof Error ? err.message : String(err));
    throw new EmbeddedDatabaseError(
      `As root, the embedded PostgreSQL runs as the user "${USER}", and there is none and it could not be made (${detail}): set DATABASE_URL, or start as another user.`,
    );
  }
  const made = postgresUser();
  if (!made) throw new EmbeddedDatabaseError(`The user "${USER}" was made but cannot be found: set DATABASE_URL, or start as another user.`);
  return made;
}

/** The PostgreSQL that embedded-postgres ships for this platform (its package @embedded-postgres/<platform>-<arch>): `native/` and its version. */
function packagedPostgres(): { native: string; version: string } {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const entry = createRequire(require.resolve('embedded-postgres')).resolve(platformPackage);
    const root = path.resolve(path.dirname(entry), '..');
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    return { native: path.join(root, 'native'), version };
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `No embedded PostgreSQL for this platform (${platformPackage} is not installed: ${err instanceof Error ? err.message : String(err)}). Set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/** The first folder from `dir` up to `/` that the user `uid`/`gid` may not enter, if any. */
function closedFolderAbove(dir: string, { uid, gid }: Ids): string | undefined {
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
 * `dir`, made when missing. The folders made here are opened to everyone (755), whatever the umask
 * (077 would close them to the `postgres` user); a folder that was already there keeps its mode.
 */
function openFolder(dir: string): string {
  const first = mkdirSync(dir, { recursive: true });
  if (first) {
    for (let made = dir; ; made = path.dirname(made)) {
      chmodSync(made, 0o755);
      if (made === first || path.dirname(made) === made) break;
    }
  }
  return dir;
}

/**
 * The packaged binaries copied to `<home>/postgres-<version>-<platform>-<arch>`, once per version:
 * into a folder of its own first, renamed when complete, so a copy cut short is never used.
 */
function copyBinaries(native: string, version: string, home: string, user: Ids): string {
  const target = path.join(openFolder(home), `postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(target, 'bin', 'postgres'))) {
    const partial = mkdtempSync(`${target}.partial-`);
    try {
      cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
      chmodSync(partial, 0o755);
      renameSync(partial, target);
    } catch (err) {
      rmSync(partial, { recursive: true, force: true });
      // Another start copied the same version at the same moment: its copy is as good.
      if (!existsSync(path.join(target, 'bin', 'postgres'))) throw err;
    }
  }
  const probe = spawnSync(path.join(target, 'bin', 'postgres'), ['--version'], { ...user, encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL copied to ${target} does not run as the user "${USER}" (${(probe.stderr || String(probe.error ?? '')).trim()}): set EMBEDDED_POSTGRES_DIR to a folder that user can reach, or set DATABASE_URL.`,
    );
  }
  return target;
}

/** What the server of a data folder runs: its binaries, its cluster (in the data folder, or where a link there points), and a description of both. */
interface Placement {
  /** `-D` of the server: the cluster's real folder. */
  cluster: string;
  /** The folder of `bin/postgres` and `bin/initdb`. */
  binaries: string;
  /** For the log and the banner: where the data is, and why there. */
  where: string;
}

/**
 * Where the server of `dataDir` runs from. As root it runs as `postgres`, which must enter every
 * folder above its binaries and its cluster; a clone in /root (mode 700) is reachable by neither,
 * and the user's folders are not ours to open. So what that user cannot reach is kept in
 * `home` (EMBEDDED_POSTGRES_DIR): the binaries copied there, the cluster in a folder of its own
 * there that `DATA_DIR/postgres` links to, so that everything reading the data folder (a restart,
 * `pnpm cli`, the `pg_dump` of docs/operations.md) finds it as before.
 */
function placement(dataDir: string, home: string, user: Ids | undefined): Placement {
  const packaged = packagedPostgres();
  const link = paths(dataDir).cluster;
  let binaries = path.join(packaged.native, 'bin');
  let copied = false;
  const closedToBinaries = user && closedFolderAbove(binaries, user);
  if (user && closedToBinaries) {
    binaries = path.join(copyBinaries(packaged.native, packaged.version, home, user), 'bin');
    copied = true;
  }
  let cluster = link;
  const closedToData = user && closedFolderAbove(dataDir, user);
  if (lstatOf(link)?.isSymbolicLink()) {
    if (!existsSync(link)) {
      throw new EmbeddedDatabaseError(
        `${link} links to ${path.resolve(dataDir, readlinkSync(link))}, which is gone, and the database with it: restore that folder, or remove the link to start with an empty database.`,
      );
    }
    cluster = realpathSync(link);
  } else if (user && closedToData && !existsSync(link)) {
    cluster = mkdtempSync(path.join(openFolder(home), 'cluster-'));
    chownSync(cluster, user.uid, user.gid);
    symlinkSync(cluster, link);
  }
  if (user) {
    const closed = closedFolderAbove(path.dirname(cluster), user);
    if (closed) {
      throw new EmbeddedDatabaseError(
        `The embedded PostgreSQL runs as the user "${USER}", which cannot enter ${closed}, where its cluster ${cluster} is: set EMBEDDED_POSTGRES_DIR or DATA_DIR to a folder that user can reach, or set DATABASE_URL.`,
      );
    }
  }
  const reason = closedToBinaries || closedToData;
  const where = [
    `data in ${link}`,
    cluster !== link ? ` -> ${cluster}` : '',
    copied ? `, binaries in ${path.dirname(binaries)}` : '',
    (cluster !== link || copied) && reason ? ` (the user "${USER}" it runs as cannot enter ${reason})` : '',
  ].join('');
  return { cluster, binaries, where };
}

function lstatOf(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The locale of the server's messages, as embedded-postgres chooses it: one the machine has, so
 * that initdb's and the server's lines are in English.
 */
function messagesLocale(): string {
  try {
    const available = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').map((l) => l.trim()));
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => available.has(l)) ?? 'C';
  } catch {
    return 'C';
  }
}

/** Runs `binaries/<program>` as `user` (when root) and resolves with its output, or rejects with its last lines. */
function run(program: string, args: string[], user: Ids | undefined, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const locale = messagesLocale();
    const child = spawn(program, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: locale } });
    const output: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((line) => (output.push(line), log(line))));
    }
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(program)} exited ${code ?? signal}: ${output.slice(-3).join(' | ')}`)),
    );
  });
}

/**
 * Creates the cluster, as embedded-postgres's `initialise()` does, with the binaries of
 * `placement` (the package's own would be out of reach when they were copied): owned by the
 * user it runs as, the superuser `postgres` with `password` (scram-sha-256), through a password
 * file only that user can read, removed after.
 */
async function initialiseCluster(binaries: string, cluster: string, password: string, user: Ids | undefined, log: (line: string) => void): Promise<void> {
  mkdirSync(cluster, { recursive: true, mode: 0o700 });
  const secrets = mkdtempSync(path.join(path.dirname(cluster), '.initdb-'));
  const pwfile = path.join(secrets, 'password');
  try {
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) for (const owned of [cluster, secrets, pwfile]) chownSync(owned, user.uid, user.gid);
    await run(
      path.join(binaries, 'initdb'),
      [`--pgdata=${cluster}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, `--lc-messages=${messagesLocale()}`],
      user,
      log,
    );
  } finally {
    rmSync(secrets, { recursive: true, force: true });
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
 * Runs the server in a process group of its own, not through embedded-postgres's `start()`, whose
 * child shares ours: a Ctrl+C at the terminal signals the whole foreground group, and Postgres
 * would shut down at once, under the services still draining their work into it. Here the Ctrl+C
 * reaches the services only, and `LocalServer.stop` ends the server after them.
 */
async function runServer(where: Placement, port: number, user: Ids | undefined, log: (line: string) => void): Promise<number> {
  const { binaries, cluster } = where;
  const child = spawn(
    path.join(binaries, 'postgres'),
    // TCP on the loopback only, no Unix socket in /tmp to collide with another server's.
    ['-D', cluster, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...user },
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

/** The embedded server of a data folder, and where its data is (for the log and the banner). */
export interface EmbeddedServer extends LocalServer {
  where: string;
}

/**
 * Starts the embedded Postgres of `dataDir` (creating the cluster on first use, with a random
 * password kept beside it), or takes over one left running by a process that was killed. The
 * caller must hold the data folder (`claimDataDir`). `home` is where, as root, what the
 * `postgres` user cannot reach goes (`placement`).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  onLog: (line: string) => void,
  home: string = DEFAULT_EMBEDDED_POSTGRES_DIR,
): Promise<EmbeddedServer> {
  const output: string[] = [];
  const log = (line: string): void => {
    output.push(line.trim());
    onLog(line.trim());
  };
  const user = runAs();
  const where = placement(dataDir, path.resolve(home), user);
  const leftOver = runningEmbeddedPostgres(dataDir);
  if (leftOver) return { ...leftOver, where: where.where };
  const { password: passwordFile } = paths(dataDir);
  const fresh = !existsSync(path.join(where.cluster, 'PG_VERSION'));
  if (fresh) writeFileSync(passwordFile, `${randomBytes(18).toString('base64url')}\n`, { mode: 0o600 });
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePortOn('127.0.0.1');
  let pid: number;
  try {
    if (fresh) await initialiseCluster(where.binaries, where.cluster, password, user, log);
    pid = await runServer(where, port, user, log);
  } catch (err) {
    if (err instanceof EmbeddedDatabaseError) throw err;
    const detail = [err instanceof Error ? err.message : String(err), ...output.slice(-3)].filter(Boolean).join(' | ');
    throw new EmbeddedDatabaseError(`The embedded PostgreSQL in ${where.cluster} did not start: ${detail}`);
  }
  return {
    ...urlFor(port, password),
    where: where.where,
    // SIGINT is Postgres's fast shutdown: sessions end, a checkpoint is written, the server exits.
    stop: () => stopProcess(pid, 'SIGINT'),
  };
}
