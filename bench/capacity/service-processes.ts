import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  pid: number;
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
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${chunk.toString()}`);
  });
  if (!child.pid) throw new Error(`could not start ${name}`);
  return { name, child, pid: child.pid };
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
