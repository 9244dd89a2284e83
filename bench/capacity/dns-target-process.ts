import { startCountingDnsTarget } from './counting-target';

/**
 * The counting DNS target in a process of its own, so a measurement of the checking process
 * leaves its CPU out (bench/probe-overhead.ts --type dns). Prints its resolver, `127.0.0.1:PORT`.
 */
async function main(): Promise<void> {
  const target = await startCountingDnsTarget();
  process.stdout.write(`${target.url}\n`);
}

void main();
