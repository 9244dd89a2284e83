import { connect } from 'node:net';

/** Whether something accepts TCP connections at the host and port of `url` within `timeoutMs`. */
export function answers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  const defaultPort = protocol.startsWith('redis') ? 6379 : 5432;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether a process with this id exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user (the postgres user, for instance).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Signals `pid` and waits until it is gone; SIGKILL after `timeoutMs`. */
export async function stopProcess(pid: number, signal: NodeJS.Signals, timeoutMs = 30_000): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, signal);
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
