import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

/** A port nobody listens on right now (closed: connecting to it is refused). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** GET `url`: its status and body, or null while nothing answers there (a process still starting). */
export async function getIfAnswering(url: string): Promise<{ status: number; body: string } | null> {
  try {
    const res = await fetch(url);
    return { status: res.status, body: await res.text() };
  } catch {
    return null;
  }
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Every JSON log line the process printed on stdout so far. */
  logs: Record<string, unknown>[];
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if still running after `timeoutMs`; resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * The JSON log lines a child process prints on stdout, collected as they come (other lines are
 * skipped); echoed on stderr with `label` when TEST_LOG_LEVEL is set.
 */
export function jsonLogLines(child: ChildProcess, label: string): Record<string, unknown>[] {
  const logs: Record<string, unknown>[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (process.env.TEST_LOG_LEVEL) process.stderr.write(`[${label}] ${line}\n`);
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  return logs;
}

/**
 * Starts `services/<service>/src/main.ts` exactly as its container image does
 * (`node --import tsx src/main.ts`, one process), so a signal reaches the service itself and its
 * exit code is its own, not a wrapper's. Stdout lines are parsed as the service's JSON logs.
 */
export function startServiceProcess(service: string, env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(ROOT, 'services', service),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = jsonLogLines(child, service);
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.TEST_LOG_LEVEL) process.stderr.write(`[${service}] ${chunk.toString()}`);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    logs,
    exited,
    stop: async (timeoutMs = 10_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}

export interface TcpForwarder {
  close(): Promise<void>;
}

/**
 * Forwards connections to `port` on 127.0.0.1 to `target`: a backing service "coming up" on an
 * address a process was started with while nothing listened there.
 */
export async function forwardPort(port: number, target: { host: string; port: number }): Promise<TcpForwarder> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(target.port, target.host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
