import { constants } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { startFakeDnsServer } from '@uptime/testing';
import type { TlsMaterial } from './tls-material';

/** How a monitor's target behaves, chosen by its path: /m/{i} answers at once, /s/{i} late, /h/{i} never. */
export type TargetKind = 'fast' | 'slow' | 'hang';
export const TARGET_PATH: Record<TargetKind, string> = { fast: 'm', slow: 's', hang: 'h' };

/** A loopback target that remembers when each monitor (by index in its path) was hit. */
export interface CountingTarget {
  url: string;
  /** monitor index → hit times (ms). */
  hits: Map<number, number[]>;
  total(): number;
  /** Requests received and not answered yet. */
  open(): number;
  /** TLS only: handshakes completed and how many of them resumed a session (0: every check paid a full one). */
  handshakes: { full: number; resumed: number };
  /** DNS only: queries the kernel dropped at the target's full UDP receive buffer, and the buffer's size. */
  udp?: { drops(): number; receiveBufferBytes: number };
  close(): Promise<void>;
}

export interface CountingTargetOptions {
  /** Serve HTTPS with this certificate, closing the connection after each answer: a fresh handshake per check. */
  tls?: TlsMaterial;
  /** How long /s/ targets take to answer. */
  slowMs?: number;
  /** Where hits go: a map shared with other targets when one run probes several (the mixed scenario). */
  hits?: Map<number, number[]>;
}

/** Notes a hit of the monitor at `index` now. */
function hit(hits: Map<number, number[]>, index: number): void {
  let list = hits.get(index);
  if (!list) hits.set(index, (list = []));
  list.push(Date.now());
}

export async function startCountingTarget(options: CountingTargetOptions = {}): Promise<CountingTarget> {
  const hits = options.hits ?? new Map<number, number[]>();
  const slowMs = options.slowMs ?? 5000;
  let total = 0;
  let open = 0;
  const handshakes = { full: 0, resumed: 0 };
  const answer = (res: ServerResponse): void => {
    open -= 1;
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2', ...(options.tls ? { connection: 'close' } : {}) });
    res.end('ok');
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const m = /^\/([msh])\/(\d+)/.exec(req.url ?? '');
    if (m) {
      hit(hits, Number(m[2]));
      total += 1;
    }
    open += 1;
    // A hanging target keeps the request until the checker gives up and closes it.
    if (m?.[1] === 'h') {
      res.on('close', () => (open -= 1));
      return;
    }
    if (m?.[1] === 's') setTimeout(() => answer(res), slowMs).unref();
    else answer(res);
  };
  let server: Server;
  if (options.tls) {
    // No session tickets (and Node keeps no server session cache): no check resumes a session.
    server = createTlsServer({ key: options.tls.key, cert: options.tls.cert, secureOptions: constants.SSL_OP_NO_TICKET }, handle);
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.isSessionReused()) handshakes.resumed += 1;
      else handshakes.full += 1;
    });
  } else {
    server = createServer(handle);
    server.keepAliveTimeout = 60_000;
  }
  server.maxRequestsPerSocket = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    hits,
    total: () => total,
    open: () => open,
    handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The name a dns monitor at `index` asks for (an A record the counting DNS target answers). */
export const dnsNameOf = (index: number): string => `m${index}.bench.test`;

/**
 * The DNS target's UDP receive buffer. The kernel's default (net.core.rmem_default, 208 KiB) holds
 * 256 queries, a sixth of a second at 1,500 a second: any hold-up of the target's process longer
 * than that dropped queries, each a check timed out after 10 s (docs/capacity.md, "DNS: the
 * target's receive buffer"). 4 MiB holds about 5,000; the kernel caps it at net.core.rmem_max.
 */
export const DNS_TARGET_RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * Datagrams the kernel dropped at the UDP socket bound to 127.0.0.1:`port` (the `drops` column of
 * /proc/net/udp), or 0 where that file is missing.
 */
export function udpDropsAt(port: number): number {
  let table: string;
  try {
    table = readFileSync('/proc/net/udp', 'latin1');
  } catch {
    return 0;
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const row = table.split('\n').find((line) => line.trim().split(/\s+/)[1] === local);
  return row === undefined ? 0 : Number(row.trim().split(/\s+/).at(-1));
}

/**
 * A loopback DNS server (the tests' fake, packages/testing) that answers every `m{i}.bench.test`
 * A query at once and remembers when each monitor was asked; its `url` is the resolver,
 * `127.0.0.1:PORT`, as dns monitors take it.
 */
export async function startCountingDnsTarget(hits = new Map<number, number[]>()): Promise<CountingTarget> {
  let total = 0;
  const server = await startFakeDnsServer({
    udpReceiveBufferBytes: DNS_TARGET_RECEIVE_BUFFER_BYTES,
    fallback: (name, type) => (type === 'A' && /^m\d+\.bench\.test$/i.test(name) ? { records: [{ type: 'A', name, ttl: 300, data: '192.0.2.1' }] } : undefined),
    onQuery: (q) => {
      const m = /^m(\d+)\./.exec(q.name);
      if (!m) return;
      hit(hits, Number(m[1]));
      total += 1;
    },
  });
  return {
    url: server.resolver,
    hits,
    total: () => total,
    open: () => 0,
    handshakes: { full: 0, resumed: 0 },
    udp: { drops: () => udpDropsAt(server.port), receiveBufferBytes: server.udpReceiveBufferBytes },
    close: () => server.close(),
  };
}

/** What a tcp monitor at `index` sends once connected (its `tcp_send`): how the TCP target knows it. */
export const tcpGreetingOf = (index: number): string => `m${index}\n`;

/**
 * A loopback TCP server that reads each connection's first line, `m{i}`, notes a hit of monitor
 * `i` and closes; its `url` is `tcp://127.0.0.1:PORT`.
 */
export async function startCountingTcpTarget(hits = new Map<number, number[]>()): Promise<CountingTarget> {
  let total = 0;
  let open = 0;
  const server = createTcpServer((socket) => {
    open += 1;
    let head = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      head += chunk;
      const m = /^m(\d+)\n/.exec(head);
      if (m) {
        hit(hits, Number(m[1]));
        total += 1;
        socket.end();
      } else if (head.length > 32) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    hits,
    total: () => total,
    open: () => open,
    handshakes: { full: 0, resumed: 0 },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The targets of the mixed scenario: HTTP, TCP and DNS, noting hits in one map (ping monitors have none). */
export interface MixedTargets extends CountingTarget {
  http: CountingTarget;
  tcp: CountingTarget;
  dns: CountingTarget;
}

export async function startMixedTargets(): Promise<MixedTargets> {
  const hits = new Map<number, number[]>();
  const [http, tcp, dns] = await Promise.all([startCountingTarget({ hits }), startCountingTcpTarget(hits), startCountingDnsTarget(hits)]);
  const parts = [http, tcp, dns];
  return {
    url: http.url,
    hits,
    total: () => parts.reduce((sum, t) => sum + t.total(), 0),
    open: () => parts.reduce((sum, t) => sum + t.open(), 0),
    handshakes: { full: 0, resumed: 0 },
    ...(dns.udp ? { udp: dns.udp } : {}),
    close: async () => void (await Promise.all(parts.map((t) => t.close()))),
    http,
    tcp,
    dns,
  };
}
