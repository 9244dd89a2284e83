import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { successOf } from '@uptime/client';
import { answer, freePort, startFakeHttpServer, waitFor, type FakeHttpServer } from '@uptime/testing';
import { contractCheckedClient } from './api-client';
import {
  alive,
  bareMachineEnv,
  killLeftovers,
  monitorsAfterMovingTheData,
  pidIn,
  pnpmRun as pnpmRunIn,
  pnpmStart as pnpmStartIn,
  readyRun,
  stopRun,
  tempEmbeddedPostgresDir,
  type StartRun,
} from './support/first-run';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../..');

const pnpmStart = (env: NodeJS.ProcessEnv): StartRun => pnpmStartIn(ROOT, env);

/** A data folder the `postgres` user can enter (the embedded server runs as it when we are root). */
function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'uptime-first-run-'));
  chmodSync(dir, 0o755);
  return path.join(dir, 'data');
}

// A checkout the `postgres` user cannot reach has the embedded server's binaries copied here
// (first-run-private-clone.test.ts tests that); never the machine's /var/lib/uptime-postgres.
let embeddedPostgresDir: string;
beforeAll(() => {
  embeddedPostgresDir = tempEmbeddedPostgresDir();
});
afterAll(() => rmSync(path.dirname(embeddedPostgresDir), { recursive: true, force: true }));

describe('pnpm start on a machine without Postgres and Redis at the default addresses', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let target: FakeHttpServer;
  const runs: StartRun[] = [];

  beforeAll(async () => {
    dataDir = tempDataDir();
    env = await bareMachineEnv({ dataDir, embeddedPostgresDir });
    target = await startFakeHttpServer(answer(200, 'ok'));
  });

  // A failed test must not leave its pnpm start holding the data folder for the next ones.
  afterEach(() => killLeftovers(runs, dataDir));

  afterAll(async () => {
    await target?.close();
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  async function start(): Promise<StartRun> {
    const run = pnpmStart(env);
    runs.push(run);
    return readyRun(run);
  }

  const stop = (run: StartRun): Promise<number | null> => stopRun(run, dataDir);

  /**
   * Ctrl+C at the terminal: SIGINT to the whole foreground process group (pnpm, its shell, node
   * and whatever node started in that group), not to one process.
   */
  async function interrupt(run: StartRun): Promise<void> {
    process.kill(-run.child.pid!, 'SIGINT');
    await run.exited;
  }

  const pnpmRun = (script: 'cli' | 'db:migrate', ...args: string[]): { stdout: string; stderr: string } => pnpmRunIn(ROOT, env, script, ...args);
  const cli = (...args: string[]): string => pnpmRun('cli', ...args).stdout;

  it('embeds Postgres and Redis, keeps a monitor and its history across a restart, and stops them cleanly', async () => {
    const first = await start();
    const baseUrl = `http://127.0.0.1:${env.PORT}`;
    const messages = first.logs.map((l) => String(l.msg));
    // Once, in plain words: which database, and where its data is (no password in the log).
    const database = messages.filter((m) => m.startsWith('database:'));
    expect(database).toEqual([expect.stringMatching(/^database: embedded PostgreSQL 15 at postgres:\/\/postgres@127\.0\.0\.1:\d+\/uptime, data in /)]);
    // A checkout the `postgres` user cannot enter (a clone under a 0700 temporary folder, as CI's
    // may be) has the binaries copied to EMBEDDED_POSTGRES_DIR, and the log says so and why.
    const copiedBinaries = `, binaries in ${embeddedPostgresDir}/postgres-`;
    const where = database[0].slice(database[0].indexOf(`data in ${dataDir}/postgres`));
    if (where.includes(copiedBinaries)) {
      expect(where).toMatch(/^data in \S+\/postgres, binaries in \S+ \(the user "postgres" it runs as cannot enter \/[^)]*\)$/);
      expect(where.startsWith(`data in ${dataDir}/postgres${copiedBinaries}`)).toBe(true);
      expect(ROOT.startsWith(where.slice(where.indexOf('cannot enter ') + 'cannot enter '.length, -1))).toBe(true);
    } else {
      expect(where).toBe(`data in ${dataDir}/postgres`);
    }
    expect(messages.some((m) => m.startsWith('redis: private redis-server') && m.endsWith(`data in ${dataDir}/redis`))).toBe(true);
    const banner = first.logs.find((l) => String(l.msg).startsWith('uptime is ready'))!;
    expect(banner).toMatchObject({
      url: `http://localhost:${env.PORT}${existsSync(path.join(ROOT, 'services/web/dist/index.html')) ? '/' : '/api/docs (the API explorer)'}`,
      data: dataDir,
      email: 'emails are only logged: set SENDGRID_API_KEY or SMTP_URL to send them',
    });

    // pnpm cli finds the embedded database that pnpm start runs, without being told.
    expect(cli('user:create', '--email', 'first-run@example.com')).toMatch(/^created user \d+ <first-run@example.com>/);
    const token = cli('token:create', '--email', 'first-run@example.com');
    // So does pnpm db:migrate: the migrations it lists are those of the running embedded database.
    const migrated = pnpmRun('db:migrate');
    expect(migrated.stdout).toMatch(/^migrations applied: \S/);
    expect(migrated.stderr).not.toContain('starting the embedded PostgreSQL');
    const client = await contractCheckedClient(baseUrl, `Bearer ${token}`);
    const created = successOf(
      await client.post('/api/v1/monitors', { body: { name: 'first run', url: `${target.url}/health`, type: 'http', check_interval: 1, timeout: 5 } }),
    ).data;
    const results = async (): Promise<number[]> =>
      successOf(await client.get('/api/v1/monitors/{id}/results', { path: { id: created.id }, query: { limit: 100 } })).data.map((r) => r.id);
    await waitFor(async () => (await results()).length >= 2, { timeoutMs: 30_000, what: 'two checks of the monitor' });
    const before = await results();
    // docs/operations.md's move to a standalone PostgreSQL, run as written while pnpm start runs.
    expect(monitorsAfterMovingTheData(dataDir)).toEqual(['first run']);

    const postgresPid = pidIn(path.join(dataDir, 'postgres/postmaster.pid'));
    const redisPid = pidIn(path.join(dataDir, 'redis/redis.pid'));
    expect(alive(postgresPid) && alive(redisPid)).toBe(true);
    expect(await stop(first)).toBe(0);
    expect(alive(postgresPid)).toBe(false);
    expect(alive(redisPid)).toBe(false);
    expect(existsSync(path.join(dataDir, 'owner.pid'))).toBe(false);

    // With no pnpm start running, pnpm cli starts the embedded database for the length of the command.
    const stopped = pnpmRun('cli', 'token:create', '--email', 'first-run@example.com');
    expect(stopped.stderr).toContain(`starting the embedded PostgreSQL in ${dataDir}/postgres for this command`);
    expect(alive(pidIn(path.join(dataDir, 'postgres/postmaster.pid')))).toBe(false);

    const second = await start();
    const again = await contractCheckedClient(baseUrl, `Bearer ${stopped.stdout}`);
    expect(successOf(await again.get('/api/v1/monitors/{id}', { path: { id: created.id } })).data).toMatchObject({ name: 'first run' });
    expect(await results()).toEqual(expect.arrayContaining(before));
    // And it is checked again after the restart: the schedule survived in Redis's append-only file.
    await waitFor(async () => (await results()).length > before.length + 1, { timeoutMs: 30_000, what: 'checks after the restart' });

    // Ctrl+C: the services drain, then Redis and PostgreSQL stop, and nothing is logged as an error.
    const [postgresAgain, redisAgain] = [pidIn(path.join(dataDir, 'postgres/postmaster.pid')), pidIn(path.join(dataDir, 'redis/redis.pid'))];
    await interrupt(second);
    expect(second.logs.find((l) => l.msg === 'shutting down')).toMatchObject({ signal: 'SIGINT' });
    expect(second.logs.find((l) => l.msg === 'stopped')).toMatchObject({ exit_code: 0 });
    const shutdown = second.logs.slice(second.logs.findIndex((l) => l.msg === 'shutting down'));
    expect(shutdown.filter((l) => Number(l.level) >= 40).map((l) => l.msg)).toEqual([]);
    expect(alive(postgresAgain)).toBe(false);
    expect(alive(redisAgain)).toBe(false);
    expect(existsSync(path.join(dataDir, 'owner.pid'))).toBe(false);
  });

  it('says the data folder is in use when a second pnpm start finds the first one running', async () => {
    const first = await start();
    const second = pnpmStart({ ...env, PORT: String(await freePort()) });
    runs.push(second);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`The data folder ${dataDir} is in use by process ${pidIn(path.join(dataDir, 'owner.pid'))}`);
    expect(second.stderr()).not.toMatch(/\n\s+at /);
    expect(await stop(first)).toBe(0);
  });

  it('names PORT in one sentence when the port is taken, and stops the servers it started', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const run = pnpmStart({ ...env, PORT: String(port) });
      runs.push(run);
      expect(await run.exited).toBe(1);
      expect(run.stderr()).toContain(`uptime failed to start: 127.0.0.1:${port} is already in use by another program: set PORT (or HOST) to a free address`);
      expect(run.stderr()).not.toMatch(/\n\s+at /);
      expect(alive(pidIn(path.join(dataDir, 'postgres/postmaster.pid')))).toBe(false);
      expect(alive(pidIn(path.join(dataDir, 'redis/redis.pid')))).toBe(false);
      expect(existsSync(path.join(dataDir, 'owner.pid'))).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('pnpm start with no Redis anywhere', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'uptime-no-redis-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The PATH's programs as links in one folder, every one but redis-server. */
  function pathWithoutRedis(): string {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    const linked = new Set(['redis-server']);
    for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter((f) => existsSync(f))) {
      for (const name of readdirSync(folder)) {
        if (linked.has(name)) continue;
        linked.add(name);
        symlinkSync(path.join(folder, name), path.join(bin, name));
      }
    }
    return bin;
  }

  it('stops at once with what to install, exit code 1, and starts no database', async () => {
    const dataDir = path.join(dir, 'data');
    const run = pnpmStart(await bareMachineEnv({ dataDir, embeddedPostgresDir }, { PATH: pathWithoutRedis() }));
    expect(await run.exited).toBe(1);
    const stderr = run.stderr();
    expect(stderr).toContain('uptime failed to start: Redis is needed');
    expect(stderr).toContain('no redis-server on the PATH');
    expect(stderr).toContain('sudo apt-get install redis-server');
    expect(stderr).toContain('brew install redis');
    expect(stderr).toContain('docker run -d --name redis -p 6379:6379 redis:7');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(run.logs.filter((l) => String(l.msg).startsWith('database:'))).toEqual([]);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  });
});

describe('pnpm start with a wrong or missing setting', () => {
  it('names each variable in one sentence, without a stack trace, exits 1 and starts nothing', async () => {
    const dataDir = tempDataDir();
    try {
      const run = pnpmStart(await bareMachineEnv({ dataDir, embeddedPostgresDir }, { PORT: 'eighty', NODE_ENV: 'production', SESSION_SECRET: undefined }));
      expect(await run.exited).toBe(1);
      const problems = run
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('config error: '));
      expect(problems).toHaveLength(2);
      expect(problems).toEqual(
        expect.arrayContaining(['config error: PORT: must be an integer number', 'config error: SESSION_SECRET: is required when NODE_ENV=production']),
      );
      expect(run.stderr()).not.toMatch(/\n\s+at /);
      expect(run.logs).toEqual([]);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  });
});
