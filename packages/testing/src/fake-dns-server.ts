import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { Answer, DecodedPacket, RecordType } from 'dns-packet';

/** How the fake answers one name and type: records, a response code, truncation over UDP, a delay. */
export interface FakeDnsAnswer {
  records?: Answer[];
  /** NOERROR by default; FORMERR, SERVFAIL, NXDOMAIN, NOTIMP or REFUSED. */
  rcode?: string;
  /** Over UDP, answer with the TC bit and no records, so the client asks again over TCP. */
  truncateOverUdp?: boolean;
  /** Milliseconds to wait before answering (a slow resolver). */
  delayMs?: number;
}

/** One query the fake received. */
export interface FakeDnsQuery {
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
}

export interface FakeDnsServer {
  /** 127.0.0.1, where both the UDP and the TCP listener are. */
  host: string;
  port: number;
  /** `127.0.0.1:PORT`, as a dns monitor's `dns_resolver` takes it. */
  resolver: string;
  queries: FakeDnsQuery[];
  /** SO_RCVBUF of the UDP socket as the kernel set it (Linux reports twice what was asked, capped by net.core.rmem_max). */
  udpReceiveBufferBytes: number;
  /** How to answer `name` (case-insensitive) asked as `type`; a name and type not set is the fallback's, else NXDOMAIN. */
  set(name: string, type: RecordType, answer: FakeDnsAnswer): void;
  close(): Promise<void>;
}

/** The response codes the fake answers with, by name (RFC 1035 4.1.1; dns-packet decodes them to these names). */
const RCODES: Readonly<Record<string, number>> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

export interface FakeDnsServerOptions {
  /** How to answer a name and type `set()` did not: NXDOMAIN when absent or when it answers undefined. */
  fallback?: (name: string, type: string) => FakeDnsAnswer | undefined;
  /**
   * Called with each query as it arrives, instead of keeping it in `queries` (a benchmark's
   * millions of queries are counted, not kept).
   */
  onQuery?: (query: FakeDnsQuery) => void;
  /**
   * SO_RCVBUF of the UDP socket, in bytes (the kernel caps it at net.core.rmem_max). The default
   * (net.core.rmem_default, 208 KiB) holds 256 small queries: a benchmark's thousand a second
   * overflow it as soon as the server's process is held up for a fraction of a second.
   */
  udpReceiveBufferBytes?: number;
}

const keyOf = (name: string, type: string): string => `${name.toLowerCase().replace(/\.$/, '')} ${type}`;

/**
 * A DNS server of our own on 127.0.0.1, over UDP and TCP on one port, speaking the wire format
 * through dns-packet: the stand-in for any resolver (docs/testing.md, "The test suite"). It answers what `set()`
 * told it, NXDOMAIN for anything else, and records every query with its transport.
 */
export async function startFakeDnsServer(options: FakeDnsServerOptions = {}): Promise<FakeDnsServer> {
  const answers = new Map<string, FakeDnsAnswer>();
  const queries: FakeDnsQuery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const tcpSockets = new Set<Socket>();

  const respond = (query: DecodedPacket, transport: 'udp' | 'tcp', send: (response: Buffer) => void): void => {
    const question = query.questions?.[0];
    if (!question) return;
    const received: FakeDnsQuery = { name: question.name, type: question.type, transport };
    if (options.onQuery) options.onQuery(received);
    else queries.push(received);
    const answer = answers.get(keyOf(question.name, question.type)) ?? options.fallback?.(question.name, question.type) ?? { rcode: 'NXDOMAIN' };
    const truncated = transport === 'udp' && answer.truncateOverUdp === true;
    // The header's TC bit (1 << 9) and RCODE (the low 4 bits) are only written through `flags`.
    const flags = dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (truncated ? 1 << 9 : 0) | (RCODES[answer.rcode ?? 'NOERROR'] ?? 0);
    const response = {
      type: 'response' as const,
      id: query.id,
      flags,
      questions: [question],
      answers: truncated ? [] : (answer.records ?? []),
    } as dnsPacket.Packet;
    const encoded = (): Buffer => (transport === 'udp' ? dnsPacket.encode(response) : dnsPacket.streamEncode(response));
    if (!answer.delayMs) return send(encoded());
    const timer = setTimeout(() => {
      timers.delete(timer);
      send(encoded());
    }, answer.delayMs);
    timers.add(timer);
  };

  const tcp: Server = createServer((socket) => {
    tcpSockets.add(socket);
    socket.on('close', () => tcpSockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const message = buffered.subarray(0, 2 + length);
        buffered = buffered.subarray(2 + length);
        respond(dnsPacket.streamDecode(message) as DecodedPacket, 'tcp', (response) => socket.writable && socket.write(response));
      }
    });
  });
  const bindUdp = (port: number): Promise<UdpSocket> =>
    new Promise((done, fail) => {
      const receiveBuffer = options.udpReceiveBufferBytes ? { recvBufferSize: options.udpReceiveBufferBytes } : {};
      const socket = createSocket({ type: 'udp4', ...receiveBuffer });
      socket.once('error', fail);
      socket.on('message', (message, from) => {
        try {
          respond(dnsPacket.decode(message), 'udp', (response) => socket.send(response, from.port, from.address));
        } catch {
          // Not a DNS message: a real server drops it too.
        }
      });
      socket.bind(port, '127.0.0.1', () => done(socket));
    });
  // One port for both: the TCP listener takes a free one, the UDP socket the same number, which
  // another process may hold on a busy machine; then both try again on another.
  let udp: UdpSocket | undefined;
  let port = 0;
  for (let attempt = 1; udp === undefined; attempt++) {
    await new Promise<void>((done, fail) => {
      tcp.once('error', fail);
      tcp.listen(0, '127.0.0.1', done);
    });
    port = (tcp.address() as AddressInfo).port;
    try {
      udp = await bindUdp(port);
    } catch (error) {
      await new Promise<void>((done) => tcp.close(() => done()));
      if (attempt >= 10) throw error;
    }
  }
  const host = (tcp.address() as AddressInfo).address;
  const udpSocket: UdpSocket = udp;

  return {
    host,
    port,
    resolver: `${host}:${port}`,
    queries,
    udpReceiveBufferBytes: udpSocket.getRecvBufferSize(),
    set: (name, type, answer) => void answers.set(keyOf(name, type), answer),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of tcpSockets) socket.destroy();
      await Promise.all([new Promise<void>((done) => udpSocket.close(() => done())), new Promise<void>((done) => tcp.close(() => done()))]);
    },
  };
}
