import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from '@uptime/testing';
import { PNPM_FETCH_ARGS, pnpmDeployArgs, ROOT } from './deploy-files';

jest.setTimeout(180_000);

function pnpm(args: string[], cwd: string): void {
  // CI=1: no prompt when pnpm would ask before replacing a node_modules folder.
  const run = spawnSync('pnpm', args, { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  if (run.status !== 0) throw new Error(`pnpm ${args.join(' ')} failed: ${run.stdout}${run.stderr}`);
}

/**
 * What the api image's build stage produces, built here without Docker: `pnpm deploy --prod` of
 * the service plus the runtime tsconfig, started with the image's CMD from the bundle's own
 * directory. This is the part of an image build that can fail on our side (a dependency only in
 * devDependencies, decorators compiled wrongly inside node_modules, a wrong entry point).
 */
describe('the api runtime bundle (the image contents, without Docker)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'uptime-bundle-'));
    const out = path.join(dir, 'app');
    // As the build stage does: the store filled from the lockfile alone, in a folder of its own
    // (pnpm fetch in the repository would reinstall its node_modules), then deploy from the sources.
    const lockfileOnly = path.join(dir, 'lockfile');
    mkdirSync(lockfileOnly);
    for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml']) copyFileSync(path.join(ROOT, file), path.join(lockfileOnly, file));
    pnpm(PNPM_FETCH_ARGS, lockfileOnly);
    pnpm(pnpmDeployArgs('api', out), ROOT);
    copyFileSync(path.join(ROOT, 'deploy/docker/tsconfig.runtime.json'), path.join(out, 'tsconfig.json'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds production dependencies only', () => {
    const modules = path.join(dir, 'app/node_modules');
    expect(existsSync(path.join(modules, 'tsx'))).toBe(true);
    expect(readdirSync(path.join(modules, '@uptime')).sort()).toEqual(expect.arrayContaining(['config', 'db', 'observability', 'queues']));
    expect(readdirSync(path.join(modules, '@uptime'))).not.toContain('testing');
    expect(existsSync(path.join(modules, 'supertest'))).toBe(false);
    expect(existsSync(path.join(modules, 'jest'))).toBe(false);
  });

  it('starts with the image command, becomes ready and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    // Not the image's 9463: other runs on this machine may hold it.
    const healthPort = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(dir, 'app'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        HEALTH_PORT: String(healthPort),
        DATABASE_URL: process.env.DATABASE_URL,
        REDIS_URL: process.env.REDIS_URL,
        QUEUE_PREFIX: process.env.QUEUE_PREFIX,
        SESSION_SECRET: 'bundle-test-secret-0123456789',
        SECRETS_KEY: 'b'.repeat(64),
        REQUIRE_HTTPS: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`the bundle exited ${child.exitCode}: ${stderr}`);
          return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200;
        },
        { timeoutMs: 60_000, intervalMs: 250, what: 'the bundled api to be ready' },
      );
      const unauthenticated = await fetch(`http://127.0.0.1:${port}/api/v1/monitors`);
      expect(unauthenticated.status).toBe(401);
      // Metrics on the health listener, not on the public port.
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${healthPort}/metrics`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
