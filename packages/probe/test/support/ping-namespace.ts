import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PingCheckConfig } from '../../src/check-config';
import { commandPinger, type Pinger } from '../../src/ping/pinger';
import type { SocketProbesRun } from './socket-probes';

/** The user the namespace's ping runs as: nobody, never root, no capability. */
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--no-new-privs'];

/** Addresses of the namespace's unreachable network (a veth whose far end answers nothing). */
export const UNREACHABLE_IPV4 = '10.97.0.7';
export const UNREACHABLE_IPV6 = 'fd00:97::7';

export interface PingNamespace {
  /** Runs `ping` as nobody inside the namespace. */
  pinger: Pinger;
  /** Runs these checks at once through ICMP sockets of a Node process of nobody's inside the namespace (socket-probes.ts). */
  probeWithSockets(checks: readonly PingCheckConfig[]): Promise<SocketProbesRun>;
  close(): void;
}

const sh = (...args: string[]): void => {
  execFileSync(args[0]!, args.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
};

/**
 * A network namespace of the test's own (`ip netns`, run as root), where `ping` runs as nobody
 * with no capability: a copy of the system's binary without its file capability (cap_net_raw on
 * Debian), run with --no-new-privs, as in a container without CAP_NET_RAW. Its loopback is up, `icmp` says whether its net.ipv4.ping_group_range lets every
 * group open ICMP datagram sockets ("0 2147483647", Docker's setting) or none ("1 0"), and a veth
 * pair carries 10.97.0.0/24 and fd00:97::/64 to a peer with no address: echo requests there get
 * no answer. Test traffic never leaves the namespace.
 */
export function startPingNamespace(options: { icmp: boolean }): PingNamespace {
  const name = `uptime-ping-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const inside = (...args: string[]): void => sh('ip', 'netns', 'exec', name, ...args);
  // A copy keeps no extended attribute, so no file capability; nobody may enter its folder.
  const folder = mkdtempSync(join(tmpdir(), 'uptime-ping-'));
  chmodSync(folder, 0o755);
  const ping = join(folder, 'ping');
  copyFileSync(execFileSync('sh', ['-c', 'command -v ping'], { encoding: 'utf8' }).trim(), ping);
  chmodSync(ping, 0o755);
  const remove = (): void => {
    sh('ip', 'netns', 'delete', name);
    rmSync(folder, { recursive: true, force: true });
  };
  sh('ip', 'netns', 'add', name);
  try {
    inside('ip', 'link', 'set', 'lo', 'up');
    inside('sysctl', '-qw', `net.ipv4.ping_group_range=${options.icmp ? '0 2147483647' : '1 0'}`);
    inside('ip', 'link', 'add', 'v0', 'type', 'veth', 'peer', 'name', 'v1');
    inside('ip', 'link', 'set', 'v0', 'up');
    inside('ip', 'link', 'set', 'v1', 'up');
    inside('ip', 'addr', 'add', '10.97.0.1/24', 'dev', 'v0');
    inside('ip', '-6', 'addr', 'add', 'fd00:97::1/64', 'dev', 'v0', 'nodad');
  } catch (error) {
    remove();
    throw error;
  }
  return {
    pinger: commandPinger(['ip', 'netns', 'exec', name, ...NOBODY, ping]),
    probeWithSockets: (checks) => probeWithSockets([name], checks),
    close: remove,
  };
}

/** The repository's root, where `--import tsx` resolves. */
const ROOT = resolve(__dirname, '../../../..');

/** socket-probes.ts inside namespace `name`: started as root, it runs its checks as nobody, with no capability. */
function probeWithSockets([name]: [string], checks: readonly PingCheckConfig[]): Promise<SocketProbesRun> {
  const args = ['netns', 'exec', name, process.execPath, '--import', 'tsx', join(__dirname, 'socket-probes.ts'), JSON.stringify(checks)];
  return new Promise((done, fail) => {
    execFile('ip', args, { cwd: ROOT, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? fail(new Error(`socket-probes.ts in ${name}: ${stderr || error.message}`)) : done(JSON.parse(stdout) as SocketProbesRun),
    );
  });
}
