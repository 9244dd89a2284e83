import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { Job } from 'bullmq';
import { createLogger } from '@uptime/logger';
import { runProbe, type CheckConfig, type ProbeOptions, type ProbeResult } from '../packages/probe/src';
import { aCheckConfig, aDnsCheckConfig } from '../packages/probe/test/support/check-config-builder';
import { dnsNameOf } from './capacity/counting-target';
import type { CheckLock } from '../services/check-worker/src/check-lock';
import { createRunCheckProcessor } from '../services/check-worker/src/run-check.processor';
import { ROOT } from './capacity/service-processes';

/**
 * pnpm bench:probe [--checks 10000] [--concurrency 50] [--via probe|processor] [--rounds 3] [--type http|dns]
 * What one check costs the checking process in CPU: N checks of a loopback target (in a process
 * of its own, so its CPU is left out: an HTTP server, or with `--type dns` a DNS server asked one
 * A query over UDP per check) at a fixed concurrency, through `runProbe` alone or through
 * the `run-check` processor (job parsing and expansion, the planned time) with an in-memory lock
 * and a recorder that drops the result: no Redis, no Postgres, no BullMQ. Prints the process's
 * CPU µs per check (user + system, process.cpuUsage) and checks/s per round, after a warm-up.
 * A micro-benchmark: on a shared machine its figures are indicative only (docs/capacity.md).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      checks: { type: 'string', default: '10000' },
      concurrency: { type: 'string', default: '50' },
      via: { type: 'string', default: 'processor' },
      rounds: { type: 'string', default: '3' },
      type: { type: 'string', default: 'http' },
    },
  });
  const checks = Number(values.checks);
  const concurrency = Number(values.concurrency);
  const dns = values.type === 'dns';
  if (!dns && values.type !== 'http') throw new Error(`--type http|dns, not ${values.type}`);
  const target = spawn(process.execPath, ['--import', 'tsx', dns ? 'bench/capacity/dns-target-process.ts' : 'bench/capacity/target-process.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const targetUrl = await new Promise<string>((resolve) => target.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
  try {
    const check = checkOf(values.via ?? 'processor', dns ? dnsCheckOf(targetUrl) : httpCheckOf(targetUrl));
    await runChecks(check, Math.min(checks, 2000), concurrency);
    for (let round = 1; round <= Number(values.rounds); round += 1) {
      const cpuBefore = process.cpuUsage();
      const startedAt = performance.now();
      const failed = await runChecks(check, checks, concurrency);
      const seconds = (performance.now() - startedAt) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const usPerCheck = (cpu.user + cpu.system) / checks;
      console.log(
        `${values.type} ${values.via} round ${round}: ${checks} checks at concurrency ${concurrency}: ${usPerCheck.toFixed(1)} µs CPU per check ` +
          `(user ${(cpu.user / checks).toFixed(1)}, system ${(cpu.system / checks).toFixed(1)}), ${Math.round(checks / seconds)} checks/s` +
          (failed > 0 ? `, ${failed} FAILED (${firstError})` : ''),
      );
    }
  } finally {
    target.kill('SIGKILL');
  }
}

/** One check of monitor `i`; counts it in `failed` when it did not pass. */
type Check = (i: number) => Promise<void>;
let failed = 0;
let firstError: string | null = null;
const countFailure = (result: ProbeResult): void => {
  if (result.ok) return;
  failed += 1;
  firstError ??= result.error;
};

/** The check of monitor `i`, whole (for runProbe) and as the scheduler's compact template holds it. */
interface Checks {
  config(i: number): CheckConfig;
  template(i: number): Record<string, unknown>;
}

const httpCheckOf = (targetUrl: string): Checks => ({
  config: (i) => aCheckConfig(`${targetUrl}/m/${i}`, { timeout: 30 }),
  template: (i) => ({ url: `${targetUrl}/m/${i}`, timeout: 30 }),
});

const dnsCheckOf = (resolver: string): Checks => ({
  config: (i) => aDnsCheckConfig(`dns://${dnsNameOf(i)}`, { timeout: 30, dnsResolver: resolver }),
  template: (i) => ({ type: 'dns', url: `dns://${dnsNameOf(i)}`, timeout: 30, dnsResolver: resolver }),
});

function checkOf(via: string, checks: Checks): Check {
  const probeOptions: ProbeOptions = { allowPrivateTargets: true };
  if (via === 'probe') {
    return async (i) => {
      countFailure(await runProbe(checks.config(i), probeOptions));
    };
  }
  if (via !== 'processor') throw new Error(`--via probe|processor, not ${via}`);
  const processJob = createRunCheckProcessor({
    probe: runProbe,
    probeOptions,
    lock: { acquire: async () => async () => undefined } as Pick<CheckLock, 'acquire'> as CheckLock,
    record: async (outcome) => countFailure(outcome.result),
    logger: createLogger({ level: 'silent', service: 'bench' }),
  });
  return async (i) => {
    // A job as BullMQ hands it over: data freshly parsed, the compact template the scheduler writes.
    const data = { monitorId: i + 1, configVersion: 1, check: checks.template(i) };
    const job = { id: `repeat:monitor-${i + 1}:${1732270140000 + i}`, timestamp: Date.now(), opts: {}, data };
    await processJob(job as unknown as Job);
  };
}

/** Runs `total` checks, `concurrency` at a time; the number that failed. */
async function runChecks(check: Check, total: number, concurrency: number): Promise<number> {
  let next = 0;
  failed = 0;
  const lane = async (): Promise<void> => {
    while (next < total) await check(next++ % 1000);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return failed;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
