import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import type { DataSource } from '@uptime/db';
import { aCaller, freePort, openTestDatabase, resetDatabase, resetRedis, startFakeHttpServer, startFakeSendGrid, waitFor, type FakeHttpServer, type FakeSendGrid } from '@uptime/testing';
import { runCoreLoopScenario } from './core-loop.scenario';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../../..');

function startService(service: string, env: NodeJS.ProcessEnv): ChildProcess {
  // Started exactly as an operator would (`pnpm --filter <service> start`), in its own process
  // group so that stopping it also stops the shell and tsx processes pnpm runs under it.
  const child = spawn('pnpm', ['--filter', `@uptime/${service}`, 'start'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.TEST_LOG_LEVEL) process.stderr.write(`[${service}] ${chunk.toString()}`);
  });
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  signalGroup('SIGKILL');
}

describe('core loop, api, check-worker and notifier as separate processes', () => {
  let ds: DataSource;
  let target: FakeHttpServer;
  let sendgrid: FakeSendGrid;
  const children: ChildProcess[] = [];
  let apiUrl = '';

  beforeAll(async () => {
    ds = await openTestDatabase();
    await resetDatabase(ds);
    await resetRedis();
    target = await startFakeHttpServer();
    sendgrid = await startFakeSendGrid();
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      MIN_CHECK_INTERVAL_SECONDS: '1',
      ALLOW_PRIVATE_TARGETS: 'true',
      RATE_LIMIT_PER_HOUR: '0',
      SENDGRID_API_KEY: sendgrid.apiKey,
      SENDGRID_API_URL: sendgrid.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    };
    children.push(startService('notifier', env), startService('check-worker', env), startService('api', env));
  });

  afterAll(async () => {
    await Promise.all(children.map(stop));
    await target?.close();
    await sendgrid?.close();
    await ds?.destroy();
  });

  it('cooperates through Redis and Postgres through the whole downtime and recovery', async () => {
    const { user, auth } = await aCaller(ds);
    await waitFor(
      async () => {
        try {
          return (await request(apiUrl).get('/api/v1/monitors').set('Authorization', auth)).status === 200;
        } catch {
          return false;
        }
      },
      { what: 'api process up', timeoutMs: 30000, intervalMs: 250 },
    );
    for (const child of children) expect(child.exitCode).toBeNull();
    await runCoreLoopScenario({ apiUrl, ds, target, sendgrid, auth, ownerEmail: user.email });
  });
});
