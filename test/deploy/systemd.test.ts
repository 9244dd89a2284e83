import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SHUTDOWN_GRACE_MS } from '@uptime/observability';
import { ROOT } from './deploy-files';
import { installedUnit, parseUnit, UNIT_FILE, unitEnvironment } from './systemd-unit';

/**
 * The settings this unit may use, by section, for machines without systemd-analyze: a misspelt
 * key is a setting systemd ignores with a warning, and the service runs without it.
 */
const KNOWN: Record<string, string[]> = {
  Unit: ['Description', 'Documentation', 'Wants', 'Requires', 'After', 'Before'],
  Service: [
    'Type', 'User', 'Group', 'WorkingDirectory', 'ExecStart', 'Environment', 'EnvironmentFile', 'StateDirectory',
    'StateDirectoryMode', 'KillMode', 'KillSignal', 'TimeoutStopSec', 'Restart', 'RestartSec', 'StandardOutput',
    'StandardError', 'SyslogIdentifier', 'LimitNOFILE', 'NoNewPrivileges', 'PrivateTmp', 'ProtectSystem', 'ProtectHome',
    'ProtectControlGroups', 'ProtectKernelModules', 'ProtectKernelTunables', 'RestrictSUIDSGID',
  ],
  Install: ['WantedBy'],
};

/** `systemd-analyze verify` of a unit file: its complaints (empty when valid), or undefined where it is not installed. */
function systemdVerify(text: string): { status: number | null; output: string } | undefined {
  if (spawnSync('systemd-analyze', ['--version']).error) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'uptime-unit-'));
  try {
    writeFileSync(path.join(dir, 'uptime.service'), text);
    const result = spawnSync('systemd-analyze', ['verify', path.join(dir, 'uptime.service')], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('deploy/systemd/uptime.service', () => {
  const unit = parseUnit(readFileSync(UNIT_FILE, 'utf8'));
  const service = unit.Service;
  const environment = unitEnvironment(unit);

  it('runs pnpm start’s entry point as its own user, with its data in /var/lib/uptime', () => {
    expect(service.User).toEqual(['uptime']);
    expect(service.Group).toEqual(['uptime']);
    expect(environment).toMatchObject({ DATA_DIR: '/var/lib/uptime', NODE_ENV: 'production' });
    // systemd makes /var/lib/uptime, owned by User=, before each start.
    expect(service.StateDirectory).toEqual(['uptime']);
    expect(service.EnvironmentFile).toEqual(['/etc/uptime/uptime.env']);
    // The same program as `pnpm start`, with node itself as the main process.
    const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toBe('tsx services/all-in-one/src/main.ts');
    expect(service.ExecStart).toEqual(['/usr/bin/node --import tsx services/all-in-one/src/main.ts']);
    expect(service.WorkingDirectory).toEqual(['/opt/uptime']);
    expect(unit.Install.WantedBy).toEqual(['multi-user.target']);
  });

  it('restarts on failure, and stops with SIGTERM to the process that drains, given time to drain', () => {
    expect(service.Restart).toEqual(['on-failure']);
    expect(service.KillSignal).toEqual(['SIGTERM']);
    // The main process alone: it stops the embedded PostgreSQL and Redis after the services.
    expect(service.KillMode).toEqual(['mixed']);
    // The drain's grace, then the database's and Redis's own stop, before systemd's SIGKILL.
    expect(Number(service.TimeoutStopSec[0])).toBeGreaterThanOrEqual(SHUTDOWN_GRACE_MS / 1000 + 30);
  });

  it('logs to the journal', () => {
    expect(service.StandardOutput).toEqual(['journal']);
    expect(service.StandardError).toEqual(['journal']);
    expect(service.SyslogIdentifier).toEqual(['uptime']);
  });

  it('is installed by install.sh with this machine’s code folder and node', () => {
    const text = installedUnit('/srv/uptime', '/usr/local/bin/node');
    const installed = parseUnit(text);
    expect(installed.Service.WorkingDirectory).toEqual(['/srv/uptime']);
    expect(installed.Service.ExecStart).toEqual(['/usr/local/bin/node --import tsx services/all-in-one/src/main.ts']);
    expect(installed.Unit.Documentation).toEqual(['file:///srv/uptime/docs/operations.md']);
    // Everything else as written.
    expect({ ...installed.Service, WorkingDirectory: [], ExecStart: [] }).toEqual({ ...service, WorkingDirectory: [], ExecStart: [] });
  });

  it('is a valid unit: systemd-analyze verify finds nothing to say (else every key is one systemd knows)', () => {
    // This checkout and this node, so that the paths it checks exist here.
    const text = installedUnit(ROOT, process.execPath);
    const verified = systemdVerify(text);
    if (verified) {
      expect(verified).toEqual({ status: 0, output: '' });
      // And it does find a misspelt setting: the check can fail.
      const misspelt = systemdVerify(text.replace('KillMode=mixed', 'KilMode=mixed'));
      expect(misspelt?.output).toContain("Unknown key 'KilMode'");
      return;
    }
    const parsed = parseUnit(text);
    for (const [section, settings] of Object.entries(parsed)) {
      expect({ section, keys: Object.keys(settings).filter((key) => !KNOWN[section]?.includes(key)) }).toEqual({ section, keys: [] });
    }
    const executable = parsed.Service.ExecStart[0].split(' ')[0];
    expect(() => accessSync(executable, constants.X_OK)).not.toThrow();
  });
});
