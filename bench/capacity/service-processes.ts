import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REQUEUED_AT_STOP_MESSAGE } from '../../services/check-worker/src/in-flight-checks';

export const ROOT = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /**
   * Checks a check-worker put back in the queue because they were still running at its shutdown
   * deadline (services/check-worker/src/in-flight-checks.ts): not lost, but never recorded here,
   * because the harness starts no worker after the stop.
   */
  requeuedAtStop: number;
}

const ENTRY = {
  'all-in-one': 'services/all-in-one/src/main.ts',
  api: 'services/api/src/main.ts',
  'check-worker': 'services/check-worker/src/main.ts',
  notifier: 'services/notifier/src/main.ts',
} as const;

/**
 * Starts a service the way `pnpm start` does (tsx), as a direct child so its pid is the node
 * process; `nodeArgs` (such as --cpu-prof) go to that node process.
 */
export function startServiceProcess(kind: keyof typeof ENTRY, name: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ServiceProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ENTRY[kind]], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // stdout carries the JSON log lines (info and up: a few a minute), read for the forced-stop line.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${chunk.toString()}`);
  });
  if (!child.pid) throw new Error(`could not start ${name}`);
  const service: ServiceProcess = { name, child, pid: child.pid, requeuedAtStop: 0 };
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${line}\n`);
      service.requeuedAtStop += requeuedIn(line);
    });
  }
  return service;
}

/** How many checks a log line says were requeued at a forced stop; 0 for any other line. */
export function requeuedIn(line: string): number {
  if (!line.includes(REQUEUED_AT_STOP_MESSAGE)) return 0;
  try {
    const entry = JSON.parse(line) as { msg?: unknown; requeued?: unknown };
    return entry.msg === REQUEUED_AT_STOP_MESSAGE && Array.isArray(entry.requeued) ? entry.requeued.length : 0;
  } catch {
    return 0;
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
export async function stopServiceProcess(p: ServiceProcess, graceMs = 35_000): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode;
  const exited = new Promise<number | null>((resolve) => p.child.once('exit', (code) => resolve(code)));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), graceMs);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
