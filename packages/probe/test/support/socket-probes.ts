import { IcmpUnavailableError, openIcmpSockets, runProbe, type ProbeResult } from '../../src';
import type { PingCheckConfig } from '../../src/check-config';

/** What socket-probes.ts prints: how its sockets opened, and each check's result or why it could not run. */
export interface SocketProbesRun {
  kind: { 4: string | null; 6: string | null };
  results: ({ result: Omit<ProbeResult, 'checkedAt'> } | { unavailable: string })[];
}

const NOBODY_ID = 65534;

/**
 * Run by ping-namespace.ts (`probeWithSockets`) inside a network namespace, as root that becomes nobody: the ping
 * checks of argv[2] (JSON), all at once, through this process's ICMP sockets, printed as one
 * SocketProbesRun. A test process cannot move itself into a namespace, so this one is started there.
 */
function becomeNobody(): void {
  const { setgroups, setgid, setuid } = process;
  if (setgroups === undefined || setgid === undefined || setuid === undefined) throw new Error('socket-probes.ts changes its user, which needs POSIX');
  setgroups([]);
  setgid(NOBODY_ID);
  setuid(NOBODY_ID);
}

async function main(): Promise<void> {
  const checks = JSON.parse(process.argv[2]!) as PingCheckConfig[];
  // Started as root, which can read a checkout nobody may not (a clone under a private mktemp
  // folder): the modules and the addon load first, then the process becomes nobody, which clears
  // every capability, before its sockets open (lazily, at the first check of each family).
  const opened = openIcmpSockets();
  becomeNobody();
  if (opened.sockets === null) throw new Error(opened.reason);
  const sockets = opened.sockets;
  const results = await Promise.all(
    checks.map((check) =>
      runProbe(check, { allowPrivateTargets: true, pinger: sockets }).then(
        ({ checkedAt: _checkedAt, ...result }) => ({ result }),
        (error: unknown) => {
          if (error instanceof IcmpUnavailableError) return { unavailable: error.reason };
          throw error;
        },
      ),
    ),
  );
  const kindOf = (family: 4 | 6): string | null => {
    try {
      return sockets.kindOf(family);
    } catch {
      return null;
    }
  };
  const run: SocketProbesRun = { kind: { 4: kindOf(4), 6: kindOf(6) }, results };
  sockets.close();
  process.stdout.write(JSON.stringify(run));
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
