import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * - `pass`: bytes flow both ways.
 * - `refuse`: a new connection is reset as soon as it is accepted; existing ones are closed.
 * - `hang`: connections are accepted and held open, but nothing flows, on new or existing ones.
 * - `reset`: existing and new connections are reset (RST).
 */
export type FaultMode = 'pass' | 'refuse' | 'hang' | 'reset';

export interface FaultProxy {
  port: number;
  setMode(mode: FaultMode): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket | null;
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target` (Postgres, Redis, any server) whose fault mode
 * is switched at run time: the stand-in for a dependency that goes away, hangs or resets.
 * Switching a held (`hang`) connection back to `pass` lets it flow again, as a healed network
 * partition would.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  const links = new Set<Link>();

  const drop = (link: Link, how: 'close' | 'reset'): void => {
    links.delete(link);
    for (const socket of [link.client, link.upstream]) {
      if (!socket || socket.destroyed) continue;
      if (how === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    }
  };

  const hold = (link: Link): void => {
    link.client.pause();
    link.upstream?.pause();
  };

  const flow = (link: Link): void => {
    if (!link.upstream) {
      const upstream = connect(target.port, target.host);
      link.upstream = upstream;
      upstream.on('data', (chunk: Buffer) => {
        if (!link.client.write(chunk)) upstream.pause();
      });
      link.client.on('drain', () => {
        if (mode === 'pass') upstream.resume();
      });
      upstream.on('drain', () => {
        if (mode === 'pass') link.client.resume();
      });
      upstream.on('end', () => link.client.end());
      upstream.on('error', () => drop(link, 'reset'));
      upstream.on('close', () => drop(link, 'close'));
    }
    link.client.resume();
    link.upstream.resume();
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    if (mode === 'refuse' || mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, upstream: null };
    links.add(link);
    client.on('data', (chunk: Buffer) => {
      // Data only arrives while flowing, so the upstream exists here.
      if (link.upstream && !link.upstream.write(chunk)) client.pause();
    });
    client.on('end', () => link.upstream?.end());
    client.on('error', () => drop(link, 'reset'));
    client.on('close', () => drop(link, 'close'));
    if (mode === 'pass') flow(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    setMode(next) {
      mode = next;
      for (const link of [...links]) {
        if (next === 'pass') flow(link);
        else if (next === 'hang') hold(link);
        else drop(link, next === 'reset' ? 'reset' : 'close');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const link of [...links]) drop(link, 'reset');
        server.close(() => resolve());
      }),
  };
}
