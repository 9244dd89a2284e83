import { spawn, type ChildProcess } from 'node:child_process';
import IORedis from 'ioredis';
import { freePort } from './service-process';

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGKILL, then waits for the exit: nothing is kept (no RDB, no AOF). */
  stop(): Promise<void>;
}

/**
 * A redis-server of its own on a free port of 127.0.0.1, keeping nothing on disk: a second or
 * third Redis for the checks queue's shards (docs/scaling.md). Resolves once it answers.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  for (let tries = 0; tries < 100; tries += 1) {
    const probe = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined); // refused until the server listens: the loop retries
    try {
      await probe.connect();
      await probe.quit();
      return { url, port, process: child, stop };
    } catch {
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await stop();
  throw new Error('redis-server did not start');
}
