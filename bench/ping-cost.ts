import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openIcmpSockets, runProbe, systemPinger, type PingBackend } from '../packages/probe/src';
import { aPingCheckConfig } from '../packages/probe/test/support/check-config-builder';
import { startPingNamespace } from '../packages/probe/test/support/ping-namespace';

/**
 * pnpm bench:ping [--backend iputils|sockets] [--checks 200] [--concurrency 10] [--count 1] [--unprivileged]
 * What one ping check costs (docs/capacity.md, "Ping checks"): N checks of 127.0.0.1 through
 * `runProbe`, at a fixed concurrency, by either backend: `iputils` spawns a `ping` per check,
 * `sockets` sends through this process's own ICMP sockets (the probe's native addon; raw sockets
 * as root where net.ipv4.ping_group_range refuses datagram ones). Prints per check the CPU of this
 * process (process.cpuUsage) and of the `ping` processes it waited for (cutime + cstime of
 * /proc/self/stat): CPU time, not latency, which a loaded machine stretches. Also the wall time of
 * one check. `--count` is ping_count (its default is 3: 2 s of wall per check, from the 1 s
 * between echo requests). `--unprivileged` (as root, iputils) runs `ping` as nobody without
 * CAP_NET_RAW in a network namespace of its own, through an ICMP datagram socket, as the shipped
 * images do; for sockets, run the whole bench that way instead (docs/capacity.md). Loopback only;
 * figures are indicative on a shared machine.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      backend: { type: 'string', default: 'iputils' },
      checks: { type: 'string', default: '200' },
      concurrency: { type: 'string', default: '10' },
      count: { type: 'string', default: '1' },
      unprivileged: { type: 'boolean', default: false },
    },
  });
  const checks = Number(values.checks);
  const concurrency = Number(values.concurrency);
  if (values.backend !== 'iputils' && values.backend !== 'sockets') throw new Error(`--backend is iputils or sockets, not ${values.backend}`);
  const namespace = values.unprivileged && values.backend === 'iputils' ? startPingNamespace({ icmp: true }) : null;
  const pinger: PingBackend = values.backend === 'sockets' ? socketsOrExit() : (namespace?.pinger ?? systemPinger);
  const config = aPingCheckConfig('ping://127.0.0.1', { pingCount: Number(values.count), timeout: 5 });
  try {
    await runChecks(checks >= 20 ? 20 : checks, concurrency, () => runProbe(config, { allowPrivateTargets: true, pinger }));
    const own = process.cpuUsage();
    const children = childCpuMs();
    const started = performance.now();
    const walls = await runChecks(checks, concurrency, () => runProbe(config, { allowPrivateTargets: true, pinger }));
    const seconds = (performance.now() - started) / 1000;
    const ownCpu = process.cpuUsage(own);
    const childMs = childCpuMs() - children;
    const ownMs = (ownCpu.user + ownCpu.system) / 1000;
    walls.sort((a, b) => a - b);
    const at = (q: number): string => walls[Math.min(walls.length - 1, Math.floor(q * walls.length))]!.toFixed(1);
    console.log(
      `${checks} ping checks of 127.0.0.1 (ping_count ${values.count}, ${describeBackend(pinger, namespace !== null)}) at concurrency ${concurrency}:\n` +
        `  CPU per check: ${((ownMs + childMs) / checks).toFixed(3)} ms (this process ${(ownMs / checks).toFixed(3)} ms, ping processes ${(childMs / checks).toFixed(3)} ms)\n` +
        `  wall per check: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms; ${Math.round(checks / seconds)} checks/s`,
    );
  } finally {
    namespace?.close();
    if (typeof pinger !== 'function') pinger.close();
  }
}

/** The addon's sockets, or an exit saying why there are none. */
function socketsOrExit(): PingBackend {
  const opened = openIcmpSockets();
  if (opened.sockets === null) throw new Error(opened.reason);
  return opened.sockets;
}

function describeBackend(backend: PingBackend, unprivileged: boolean): string {
  if (typeof backend !== 'function') return `this process's ICMP ${backend.kindOf(4)} socket`;
  return unprivileged ? 'iputils ping as nobody through an ICMP datagram socket' : 'iputils ping';
}

/** CPU milliseconds of the child processes this one has waited for (cutime + cstime, in clock ticks of 10 ms). */
function childCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Runs `check` `total` times, `concurrency` at once; answers each one's wall milliseconds, failing on a down result. */
async function runChecks(total: number, concurrency: number, check: () => Promise<{ ok: boolean; error: string | null }>): Promise<number[]> {
  const walls: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        next += 1;
        const started = performance.now();
        const result = await check();
        if (!result.ok) throw new Error(`a ping check of 127.0.0.1 failed: ${result.error}`);
        walls.push(performance.now() - started);
      }
    }),
  );
  return walls;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
