import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PACKAGE = path.resolve(__dirname, '..');

/**
 * The probe's install script (scripts/build-icmp-addon.cjs; docs/operations.md, "ICMP ping"), run
 * on a copy of the package's script and C source, so the addon the other tests load stays as it is.
 */
describe('building the ICMP socket addon on install', () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'uptime-icmp-addon-'));
    for (const file of ['scripts/build-icmp-addon.cjs', 'native/icmp_socket.c']) {
      mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      copyFileSync(path.join(PACKAGE, file), path.join(copy, file));
    }
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  const build = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [path.join(copy, 'scripts/build-icmp-addon.cjs'), ...args], { cwd: copy, encoding: 'utf8', env: { ...process.env, ...env } });
  const output = (): string => path.join(copy, 'build/icmp_socket.node');

  it("compiles it with the system compiler against the running Node's headers, into an addon that loads and opens a socket", () => {
    const run = build({});
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`built build/icmp_socket.node for Node ${process.version}`);
    const module = { exports: {} as { open(family: 4, listener: () => void): { socket: unknown }; close(socket: unknown): void } };
    process.dlopen(module, output());
    const opened = module.exports.open(4, () => undefined);
    module.exports.close(opened.socket);
  });

  it('lets the install go on without a compiler, saying that ping checks will run iputils ping', () => {
    const run = build({ CC: path.join(copy, 'no-such-compiler') });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/ICMP socket addon not built \(.*no-such-compiler.*\); ping checks will run iputils ping/);
    // No addon of an earlier build is left behind to be loaded by another Node.
    expect(existsSync(output())).toBe(false);
  });

  it('fails with --strict (the images), where the addon is required', () => {
    const run = build({ CC: path.join(copy, 'no-such-compiler') }, '--strict');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/ICMP socket addon not built .*required here \(--strict\)/);
  });
});
