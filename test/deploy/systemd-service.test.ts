import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, jsonLogLines, waitFor } from '@uptime/testing';
import { ROOT } from './deploy-files';
import { installedUnit, parseUnit, unitEnvironment } from './systemd-unit';

// One start of the whole service: tsx compiles it afresh for a user whose cache is empty.
jest.setTimeout(240_000);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * What systemd does with deploy/systemd/uptime.service, without systemd (not PID 1 here): the
 * ExecStart command in WorkingDirectory (this checkout, as install.sh writes it), as an
 * unprivileged user (`nobody`, standing for `uptime`), with only the unit's Environment= and an
 * EnvironmentFile's settings, the state directory made for that user with
 * StateDirectoryMode, and `systemctl stop`'s SIGTERM to the main process alone (KillMode=mixed).
 * The state directory is a temporary folder in place of /var/lib/uptime.
 */
/**
 * The code folder the unit runs from: this checkout, as install.sh writes it into the unit, or,
 * when the service's user cannot read it (a clone under a 0700 folder, as a CI run's may be), a
 * copy of it in `into`, as install.sh copies the checkout to /opt/uptime. The copy is made of
 * hard links where it can be (same file system), so it costs seconds, not the node_modules' size.
 */
function codeFolder(user: { uid: number } | undefined, into: string): string {
  if (!user || spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-r', path.join(ROOT, 'package.json')]).status === 0) return ROOT;
  mkdirSync(into, { mode: 0o755 });
  for (const entry of readdirSync(ROOT).filter((e) => !['.git', '.data', 'test-output'].includes(e))) {
    const from = path.join(ROOT, entry);
    if (spawnSync('cp', ['-al', from, into]).status !== 0) execFileSync('cp', ['-a', from, into]);
  }
  return into;
}

describe('uptime.service, run as systemd runs it', () => {
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? { uid: Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' })) } : undefined;
  let unit: ReturnType<typeof parseUnit>;
  let service: ReturnType<typeof parseUnit>['Service'];
  let scratch: string;
  let stateDir: string;

  beforeAll(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'uptime-systemd-'));
    unit = parseUnit(installedUnit(codeFolder(user, path.join(scratch, 'opt-uptime')), process.execPath));
    service = unit.Service;
    stateDir = path.join(scratch, 'state');
    // StateDirectory=: made by systemd, owned by User=, with StateDirectoryMode.
    mkdirSync(stateDir, { mode: Number.parseInt(service.StateDirectoryMode[0], 8) });
    // PrivateTmp=: a /tmp of its own (tsx keeps its compile cache there).
    mkdirSync(path.join(scratch, 'tmp'), { mode: 0o1777 });
    if (user) for (const dir of [scratch, stateDir, path.join(scratch, 'tmp')]) chownSync(dir, user.uid, user.gid);
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('starts as its own user with the embedded PostgreSQL and Redis in its state directory, and stops gracefully on SIGTERM', async () => {
    const environment = unitEnvironment(unit);
    expect(environment.DATA_DIR).toBe('/var/lib/uptime');
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      // systemd's own: a fixed PATH, no variable of the shell that ran systemctl.
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      TMPDIR: path.join(scratch, 'tmp'),
      ...environment,
      DATA_DIR: stateDir,
      // What /etc/uptime/uptime.env holds after install.sh.
      SESSION_SECRET: 'a'.repeat(64),
      SECRETS_KEY: 'c'.repeat(64),
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      // This machine has PostgreSQL and Redis at the default addresses; a VM has not.
      TEST_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/uptime`,
      TEST_DEFAULT_REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    };
    const [command, ...args] = service.ExecStart[0].split(' ');
    const child = spawn(command, args, { cwd: service.WorkingDirectory[0], env, stdio: ['ignore', 'pipe', 'pipe'], ...user });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const logs = jsonLogLines(child, 'uptime.service');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`it exited ${child.exitCode}: ${stderr}`);
          return logs.some((l) => String(l.msg).startsWith('uptime is ready'));
        },
        { timeoutMs: 180_000, intervalMs: 250, what: 'the service to be ready' },
      );
      // LOG_FORMAT=json: the journal gets the banner as one entry.
      expect(logs.find((l) => String(l.msg).startsWith('uptime is ready'))).toMatchObject({ data: stateDir });
      const postgresPid = Number(readFileSync(path.join(stateDir, 'postgres/postmaster.pid'), 'utf8').split('\n')[0]);
      const redisPid = Number(readFileSync(path.join(stateDir, 'redis/redis.pid'), 'utf8').trim());
      if (user) {
        // Not root, so the embedded PostgreSQL runs as the service's user, its cluster in the state directory.
        expect(statSync(path.join(stateDir, 'postgres')).uid).toBe(user.uid);
        expect(statSync(`/proc/${postgresPid}`).uid).toBe(user.uid);
        expect(statSync(`/proc/${child.pid}`).uid).toBe(user.uid);
      }
      expect(statSync(stateDir).mode & 0o777).toBe(0o700);

      // systemctl stop with KillMode=mixed, KillSignal=SIGTERM: the main process alone.
      child.kill(service.KillSignal[0] as NodeJS.Signals);
      expect(await exited).toBe(0);
      expect(logs.find((l) => l.msg === 'shutting down')).toMatchObject({ signal: 'SIGTERM' });
      expect(logs.find((l) => l.msg === 'stopped')).toMatchObject({ exit_code: 0 });
      expect(logs.filter((l) => Number(l.level) >= 50).map((l) => l.msg)).toEqual([]);
      // It stopped the database and Redis it started, before exiting: nothing left for SIGKILL.
      expect(alive(postgresPid)).toBe(false);
      expect(alive(redisPid)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const file of ['postgres/postmaster.pid', 'redis/redis.pid']) {
        try {
          const pid = Number(readFileSync(path.join(stateDir, file), 'utf8').split('\n')[0]);
          if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
        } catch {
          // not started, or stopped
        }
      }
    }
  });
});
