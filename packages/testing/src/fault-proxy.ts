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

/** The proxy's connections, each a client and its upstream, under the current mode. */
class ProxiedLinks {
  private mode: FaultMode = 'pass';
  private readonly links = new Set<Link>();

  constructor(private readonly target: { host: string; port: number }) {}

  /** A new client: refused, or linked and flowing or held as the mode says. */
  accept(client: Socket): void {
    if (this.mode === 'refuse' || this.mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const link: Link = { client, upstream: null };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => {
      // Data only arrives while flowing, so the upstream exists here.
      if (link.upstream && !link.upstream.write(chunk)) client.pause();
    });
    client.on('end', () => link.upstream?.end());
    client.on('error', () => this.drop(link, 'reset'));
    client.on('close', () => this.drop(link, 'close'));
    if (this.mode === 'pass') this.flow(link);
  }

  setMode(next: FaultMode): void {
    this.mode = next;
    for (const link of [...this.links]) {
      if (next === 'pass') this.flow(link);
      else if (next === 'hang') this.hold(link);
      else this.drop(link, next === 'reset' ? 'reset' : 'close');
    }
  }

  resetAll(): void {
    for (const link of [...this.links]) this.drop(link, 'reset');
  }

  private drop(link: Link, how: 'close' | 'reset'): void {
    this.links.delete(link);
    for (const socket of [link.client, link.upstream]) {
      if (!socket || socket.destroyed) continue;
      if (how === 'reset') socket.resetAndDestroy();
      else socket.destroy();
    }
  }

  private hold(link: Link): void {
    link.client.pause();
    link.upstream?.pause();
  }

  private flow(link: Link): void {
    if (!link.upstream) {
      const upstream = connect(this.target.port, this.target.host);
      link.upstream = upstream;
      upstream.on('data', (chunk: Buffer) => {
        if (!link.client.write(chunk)) upstream.pause();
      });
      link.client.on('drain', () => {
        if (this.mode === 'pass') upstream.resume();
      });
      upstream.on('drain', () => {
        if (this.mode === 'pass') link.client.resume();
      });
      upstream.on('end', () => link.client.end());
      upstream.on('error', () => this.drop(link, 'reset'));
      upstream.on('close', () => this.drop(link, 'close'));
    }
    link.client.resume();
    link.upstream.resume();
  }
}

/**
 * A TCP proxy on 127.0.0.1 in front of `target` (Postgres, Redis, any server) whose fault mode
 * is switched at run time: the stand-in for a dependency that goes away, hangs or resets.
 * Switching a held (`hang`) connection back to `pass` lets it flow again, as a healed network
 * partition would.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const links = new ProxiedLinks(target);
  const server: Server = createServer({ pauseOnConnect: true }, (client) => links.accept(client));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    setMode: (next) => links.setMode(next),
    close: () =>
      new Promise<void>((resolve) => {
        links.resetAll();
        server.close(() => resolve());
      }),
  };
}
