import { readFileSync } from 'node:fs';
import { startCountingTarget } from './counting-target';

/**
 * A counting target in a process of its own, so a measurement of the checking process leaves the
 * target's memory out. TARGET_TLS_KEY/TARGET_TLS_CERT (files): HTTPS; TARGET_SLOW_MS: how long
 * /s/ targets take. Prints its URL on stdout, then the requests it holds open, every 200 ms.
 */
async function main(): Promise<void> {
  const keyPath = process.env.TARGET_TLS_KEY;
  const certPath = process.env.TARGET_TLS_CERT;
  const tls =
    keyPath && certPath
      ? { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), keyPath, certPath, remove: () => undefined }
      : undefined;
  const target = await startCountingTarget({ tls, slowMs: Number(process.env.TARGET_SLOW_MS ?? 5000) });
  process.stdout.write(`${target.url}\n`);
  setInterval(() => process.stdout.write(`hits ${target.total()} open ${target.open()}\n`), 200);
}

void main();
