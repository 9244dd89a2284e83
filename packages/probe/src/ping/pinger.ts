import { execFile } from 'node:child_process';

/** What one run of iputils `ping` said. */
export interface PingRun {
  /** 0: some answer came back; 1: none did; 2: another error; null: killed (past its deadline). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs iputils `ping` with these arguments, and kills it after `deadlineMs`. The check-worker
 * runs `ping` itself (`commandPinger(['ping'])`); tests run it as another user in a network
 * namespace of their own by putting `ip netns exec ... setpriv ...` in front.
 */
export type Pinger = (args: readonly string[], deadlineMs: number) => Promise<PingRun>;

/** A Pinger that cannot send ICMP: it says why at start (icmp-access.ts), and every check it is given fails on our side. */
export class IcmpUnavailableError extends Error {
  readonly code = 'ERR_ICMP_UNAVAILABLE';

  constructor(readonly reason: string) {
    super(`This worker cannot send ICMP echo requests: ${reason}`);
    this.name = 'IcmpUnavailableError';
  }
}

/**
 * What iputils prints when the process may open neither an ICMP datagram socket (its group is
 * outside net.ipv4.ping_group_range) nor a raw one (no CAP_NET_RAW), or the address family is
 * off on this machine: our failure, never the target's.
 */
const NO_ICMP_SOCKET = /socket: (Operation not permitted|Permission denied|Address family not supported by protocol)|missing cap_net_raw/i;

/** Why this run shows the process cannot send ICMP at all, or null. */
export function icmpUnavailableReason(run: PingRun): string | null {
  const line = run.stderr.split('\n').find((l) => NO_ICMP_SOCKET.test(l));
  return line === undefined ? null : line.replace(/^ping:\s*/, '').trim();
}

/**
 * `command` (a program and the arguments that come before ping's own) as a Pinger. The output is
 * read in the C locale; a missing program is an IcmpUnavailableError.
 */
export function commandPinger(command: readonly [string, ...string[]]): Pinger {
  const [program, ...leading] = command;
  return (args, deadlineMs) =>
    new Promise<PingRun>((resolve, reject) => {
      execFile(
        program,
        [...leading, ...args],
        { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' }, timeout: deadlineMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 },
        (error, stdout, stderr) => {
          const code = (error as { code?: unknown } | null)?.code;
          if (code === 'ENOENT') return reject(new IcmpUnavailableError(`${program} not found`));
          if (error && typeof code !== 'number' && !(error as { killed?: boolean }).killed) return reject(error);
          resolve({ exitCode: error ? (typeof code === 'number' ? code : null) : 0, stdout, stderr });
        },
      );
    });
}

/** iputils `ping` from the PATH: how workers, the API's test and agents ping. */
export const systemPinger: Pinger = commandPinger(['ping']);
