import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { successOf } from '@uptime/client';
import { answer, startFakeHttpServer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import {
  alive,
  bareMachineEnv,
  killLeftovers,
  monitorsAfterMovingTheData,
  pidIn,
  pnpmRun,
  pnpmStart,
  readyRun,
  stopRun,
  tempEmbeddedPostgresDir,
  type StartRun,
} from './support/first-run';

// Copying the checkout and `pnpm install --offline` (20 s alone, 70 s on the shared machine), then
// two starts whose first compiles every file of the clone afresh (tsx caches per path).
jest.setTimeout(480_000);

const ROOT = path.resolve(__dirname, '../../..');
const isRoot = process.getuid?.() === 0;

/**
 * A fresh VM's first try: logged in as root, the repository cloned into /root (mode 700, which the
 * `postgres` user the embedded server runs as cannot enter), `bash scripts/start.sh`. The clone is
 * made of this checkout's files as they are on disk (tracked and new ones, as `git ls-files` lists
 * them, without what .gitignore leaves out), so that it tests the working tree and not the last
 * commit, into a folder made by mkdtemp: owned by root, mode 700, like /root.
 */
function privateClone(): { home: string; checkout: string } {
  const home = mkdtempSync(path.join(tmpdir(), 'uptime-root-home-'));
  const checkout = path.join(home, 'uptime');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter(Boolean);
  for (const file of new Set(files)) {
    const from = path.join(ROOT, file);
    // A tracked file deleted in the working tree, or a submodule's folder.
    if (!existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
    copyFileSync(from, path.join(checkout, file));
  }
  // From the machine's pnpm store, as `bash scripts/start.sh` installs (without the network).
  execFileSync('pnpm', ['install', '--frozen-lockfile', '--offline'], { cwd: checkout, stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  return { home, checkout };
}

const modeOf = (dir: string): number => statSync(dir).mode & 0o7777;

describe('pnpm start as root from a clone in a private folder', () => {
  let home: string;
  let checkout: string;
  let dataDir: string;
  let embeddedPostgresDir: string;
  let env: NodeJS.ProcessEnv;
  let target: FakeHttpServer;
  const runs: StartRun[] = [];

  beforeAll(async () => {
    ({ home, checkout } = privateClone());
    dataDir = path.join(checkout, '.data');
    embeddedPostgresDir = tempEmbeddedPostgresDir();
    // DATA_DIR unset: the clone's own .data/, as a person who sets nothing gets.
    env = await bareMachineEnv({ embeddedPostgresDir });
    target = await startFakeHttpServer(answer(200, 'ok'));
  });

  afterEach(() => killLeftovers(runs, dataDir));

  afterAll(async () => {
    await target?.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(path.dirname(embeddedPostgresDir), { recursive: true, force: true });
  });

  async function start(): Promise<StartRun> {
    const run = pnpmStart(checkout, env);
    runs.push(run);
    return readyRun(run);
  }

  const cli = (...args: string[]): { stdout: string; stderr: string } => pnpmRun(checkout, env, 'cli', ...args);

  it('starts the embedded PostgreSQL where its user can reach it, says where, and keeps the data across a restart', async () => {
    const modesBefore = { home: modeOf(home), checkout: modeOf(checkout) };
    expect(modesBefore.home).toBe(0o700);

    const first = await start();
    const database = first.logs.map((l) => String(l.msg)).filter((m) => m.startsWith('database:'));
    const banner = first.logs.find((l) => String(l.msg).startsWith('uptime is ready'))!;
    expect(banner).toMatchObject({ data: dataDir });
    if (isRoot) {
      // The cluster in a folder of its own under EMBEDDED_POSTGRES_DIR, linked from the data
      // folder; the binaries copied beside it; and why, in the log and the banner.
      const cluster = readlinkSync(path.join(dataDir, 'postgres'));
      expect(path.dirname(cluster)).toBe(embeddedPostgresDir);
      expect(statSync(cluster)).toMatchObject({ uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })) });
      const binaries = readdirSync(embeddedPostgresDir).find((f) => f.startsWith('postgres-'));
      expect(binaries).toMatch(/^postgres-15\.\d+\.\d+.*-linux-/);
      const where =
        `data in ${dataDir}/postgres -> ${cluster}, binaries in ${path.join(embeddedPostgresDir, binaries!)} ` +
        `(the user "postgres" it runs as cannot enter ${home})`;
      expect(database).toEqual([expect.stringMatching(/^database: embedded PostgreSQL 15 at postgres:\/\/postgres@127\.0\.0\.1:\d+\/uptime, /)]);
      expect(database[0].endsWith(where)).toBe(true);
      expect(banner.database).toBe(database[0].slice('database: '.length));
    } else {
      expect(lstatSync(path.join(dataDir, 'postgres')).isDirectory()).toBe(true);
    }

    // pnpm cli, from a second terminal in the clone, finds the running database.
    expect(cli('user:create', '--email', 'root@example.com').stdout).toMatch(/^created user \d+ <root@example.com>/);
    const token = cli('token:create', '--email', 'root@example.com').stdout;
    const client = await contractCheckedClient(`http://127.0.0.1:${env.PORT}`, `Bearer ${token}`);
    const created = successOf(
      await client.post('/api/v1/monitors', { body: { name: 'from /root', url: `${target.url}/health`, type: 'http', check_interval: 1, timeout: 5 } }),
    ).data;
    const results = async (): Promise<number[]> =>
      successOf(await client.get('/api/v1/monitors/{id}/results', { path: { id: created.id }, query: { limit: 100 } })).data.map((r) => r.id);
    await waitFor(async () => (await results()).length >= 1, { timeoutMs: 30_000, what: 'a check of the monitor' });
    const before = await results();
    // docs/operations.md's pg_dump move reads .data/postgres/postmaster.pid, through the link.
    expect(monitorsAfterMovingTheData(dataDir)).toEqual(['from /root']);

    const postgresPid = pidIn(path.join(dataDir, 'postgres/postmaster.pid'));
    expect(await stopRun(first, dataDir)).toBe(0);
    expect(alive(postgresPid)).toBe(false);

    // With nothing running, pnpm cli starts the same database for the length of the command.
    const stopped = cli('token:create', '--email', 'root@example.com');
    expect(stopped.stderr).toContain(`starting the embedded PostgreSQL in ${dataDir}/postgres for this command`);

    // A restart: the same cluster, the monitor and its history.
    const second = await start();
    const again = await contractCheckedClient(`http://127.0.0.1:${env.PORT}`, `Bearer ${stopped.stdout}`);
    expect(successOf(await again.get('/api/v1/monitors/{id}', { path: { id: created.id } })).data).toMatchObject({ name: 'from /root' });
    expect(await results()).toEqual(expect.arrayContaining(before));
    expect(await stopRun(second, dataDir)).toBe(0);

    // The user's own folders kept their modes.
    expect({ home: modeOf(home), checkout: modeOf(checkout) }).toEqual(modesBefore);
  });
});
