import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { LocalServer } from './embedded-postgres';
import { freePortOn } from './free-port';
import { isAlive, stopProcess } from './reachable';

/** No Redis answers and none can be started: the message says what to install. */
export class RedisMissingError extends Error {
  constructor(defaultUrl: string) {
    super(
      [
        `Redis is needed (BullMQ's queues run on it), nothing answers at ${defaultUrl}, and there is no redis-server on the PATH to start a private one.`,
        'Install Redis, then run `pnpm start` again:',
        '  Debian/Ubuntu:     sudo apt-get install redis-server',
        '  macOS (Homebrew):  brew install redis',
        '  Docker:            docker run -d --name redis -p 6379:6379 redis:7',
        'Or set REDIS_URL to a Redis server you already have.',
      ].join('\n'),
    );
  }
}

/** The first executable `name` on `searchPath` (the PATH). */
export function findOnPath(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Whether Redis at `port` answers PING (it refuses commands while it loads its append-only file). */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

/**
 * Starts `redis-server` for this run, with its data under `<dataDir>/redis` and the append-only
 * file on, so queues and schedules survive a restart. It gets a process group of its own: a
 * Ctrl+C at the terminal reaches the services, which drain, and `stop` ends Redis after them. The
 * caller must hold the data folder (`claimDataDir`).
 */
export async function startPrivateRedis(binary: string, dataDir: string, onLog: (line: string) => void): Promise<LocalServer> {
  const dir = path.join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pidFile = path.join(dir, 'redis.pid');
  // One left running by a process that was killed: stop it, it writes the same files.
  try {
    const stale = Number(readFileSync(pidFile, 'utf8').trim());
    if (stale > 0 && isAlive(stale)) await stopProcess(stale, 'SIGTERM');
  } catch {
    // no pid file: nothing left over
  }
  const port = await freePortOn('127.0.0.1');
  const child = spawn(
    binary,
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--appendonly', 'yes', '--pidfile', pidFile, '--save', '', '--daemonize', 'no'],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        output.push(line);
        onLog(line);
      }
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Should this process end abruptly, Redis does not outlive it.
  const onExit = (): void => void child.kill('SIGTERM');
  process.once('exit', onExit);
  const deadline = Date.now() + 30_000;
  while (!(await pong(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The private redis-server (${binary}) did not start: ${output.slice(-3).join(' | ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    safeUrl: url,
    stop: async () => {
      process.removeListener('exit', onExit);
      // SIGTERM: Redis flushes its append-only file and exits.
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
