import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/**
 * A checkout in miniature: the real scripts, a web package and a `pnpm` on PATH that records
 * its arguments and "builds" by writing dist/index.html, as `vite build` would.
 */
function aCheckout(): { dir: string; calls: () => string[][]; write: (file: string, content?: string) => string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'uptime-start-'));
  const write = (file: string, content = ''): string => {
    const full = path.join(dir, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  mkdirSync(path.join(dir, 'scripts'));
  for (const script of ['start.sh', 'build-web.sh', 'ensure-pnpm.sh']) copyFileSync(path.join(ROOT, 'scripts', script), path.join(dir, 'scripts', script));
  write('pnpm-lock.yaml', 'lockfileVersion: 9.0\n');
  write('services/web/package.json', '{"name":"@uptime/web"}');
  write('services/web/src/main.tsx', 'export {};');
  write('packages/client/src/index.ts', 'export {};');
  const fake = write(
    'bin/pnpm',
    `#!/usr/bin/env bash
[[ $1 == --version ]] && { echo 9.15.9; exit 0; }
echo "$*" >> "${dir}/pnpm-calls"
if [[ "$*" == "--filter @uptime/web build" ]]; then
  [[ -n \${FAIL_BUILD:-} ]] && exit 3
  mkdir -p services/web/dist && echo '<!doctype html>' > services/web/dist/index.html
fi
[[ $1 == start ]] && echo "pnpm start ran"
exit 0
`,
  );
  chmodSync(fake, 0o755);
  const calls = (): string[][] =>
    existsSync(path.join(dir, 'pnpm-calls'))
      ? readFileSync(path.join(dir, 'pnpm-calls'), 'utf8').trim().split('\n').map((l) => l.split(' '))
      : [];
  return { dir, calls, write };
}

const envFor = (dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`,
  HOME: dir,
  ...extra,
});

async function sh(dir: string, script: string, extra: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run('bash', [path.join(dir, 'scripts', script)], { cwd: dir, env: envFor(dir, extra) });
    return { code: 0, stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

/** The checkout's source files at the start. */
const SOURCES = ['services/web/src/main.tsx', 'services/web/package.json', 'packages/client/src/index.ts', 'pnpm-lock.yaml'];

const builds = (calls: string[][]): number => calls.filter((c) => c.join(' ') === '--filter @uptime/web build').length;
/** Sets a file's times `secondsAgo` in the past (the build's output is older than what changes next). */
const age = (file: string, secondsAgo: number): void => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, t, t);
};

let checkout: ReturnType<typeof aCheckout>;
beforeEach(() => {
  checkout = aCheckout();
});
afterEach(() => rmSync(checkout.dir, { recursive: true, force: true }));

/** The build is `buildAge` seconds old and every source older still: nothing changed since. */
const settle = (buildAge: number): void => {
  age(path.join(checkout.dir, 'services/web/dist/index.html'), buildAge);
  for (const f of SOURCES) age(path.join(checkout.dir, f), buildAge + 60);
};

describe('scripts/build-web.sh: the web app is built when missing or stale', () => {
  it('builds when dist is missing, then not again while nothing changed', async () => {
    const first = await sh(checkout.dir, 'build-web.sh');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Building the web app');
    expect(existsSync(path.join(checkout.dir, 'services/web/dist/index.html'))).toBe(true);
    expect(builds(checkout.calls())).toBe(1);
    settle(0);
    expect((await sh(checkout.dir, 'build-web.sh')).stdout).toBe('');
    expect(builds(checkout.calls())).toBe(1);
  });

  it.each(['services/web/src/pages/Settings.tsx', 'packages/client/src/schema.d.ts', 'pnpm-lock.yaml'])(
    'rebuilds when %s is newer than the build',
    async (changed) => {
      await sh(checkout.dir, 'build-web.sh');
      settle(60);
      checkout.write(changed, 'changed');
      const again = await sh(checkout.dir, 'build-web.sh');
      expect(again.stdout).toContain(`Rebuilding the web app: ${changed} changed`);
      expect(builds(checkout.calls())).toBe(2);
    },
  );

  it("ignores what is not a source: the app's node_modules and its own output", async () => {
    await sh(checkout.dir, 'build-web.sh');
    settle(60);
    checkout.write('services/web/node_modules/vite/index.js', 'x');
    checkout.write('services/web/dist/assets/index-abc.js', 'x');
    await sh(checkout.dir, 'build-web.sh');
    expect(builds(checkout.calls())).toBe(1);
  });

  it('does nothing without services/web, and fails when the build fails', async () => {
    rmSync(path.join(checkout.dir, 'services/web/package.json'));
    expect(await sh(checkout.dir, 'build-web.sh')).toEqual({ code: 0, stdout: '' });
    expect(checkout.calls()).toEqual([]);
    checkout.write('services/web/package.json', '{"name":"@uptime/web"}');
    expect((await sh(checkout.dir, 'build-web.sh', { FAIL_BUILD: '1' })).code).toBe(3);
  });
});

describe('scripts/start.sh', () => {
  it('installs, builds the app, prints the URL to open, then starts', async () => {
    const started = await sh(checkout.dir, 'start.sh');
    expect(started.code).toBe(0);
    expect(checkout.calls().map((c) => c.join(' '))).toEqual(['install --frozen-lockfile', '--filter @uptime/web build', 'start']);
    expect(started.stdout).toContain('Open http://localhost:3000 in a browser');
    expect(started.stdout.indexOf('Open http://')).toBeLessThan(started.stdout.indexOf('pnpm start ran'));
  });

  it('prints the URL sign-in redirects to: APP_URL, else PUBLIC_URL, else localhost on PORT', async () => {
    expect((await sh(checkout.dir, 'start.sh', { PORT: '8080' })).stdout).toContain('Open http://localhost:8080 ');
    expect((await sh(checkout.dir, 'start.sh', { PUBLIC_URL: 'https://up.example.test' })).stdout).toContain('Open https://up.example.test ');
    expect((await sh(checkout.dir, 'start.sh', { PUBLIC_URL: 'https://up.example.test', APP_URL: 'https://app.example.test' })).stdout).toContain(
      'Open https://app.example.test ',
    );
  });

  it('stops before starting when the build fails', async () => {
    const failed = await sh(checkout.dir, 'start.sh', { FAIL_BUILD: '1' });
    expect(failed.code).not.toBe(0);
    expect(checkout.calls().map((c) => c[0])).not.toContain('start');
  });
});
