import { setTimeout as sleep } from 'node:timers/promises';
import { ECHO_DATA, echoRequest, parseEchoReply, type IcmpFamily } from './echo-packet';
import { loadIcmpAddon, type IcmpAddon, type IcmpSocketHandle } from './icmp-addon';
import { packetLossOf, type PingFigures } from './ping-output';
import { IcmpUnavailableError } from './pinger';

/** errno codes of a socket() the process may not open, or of a family this host has turned off: our failure, never the target's. */
const NO_ICMP_SOCKET = new Set(['EPERM', 'EACCES', 'EAFNOSUPPORT', 'EPROTONOSUPPORT']);

/** How a socket of the addon was opened: `datagram` (net.ipv4.ping_group_range) or `raw` (CAP_NET_RAW). */
export type IcmpSocketKind = 'datagram' | 'raw';

/**
 * Ping checks without a process per check (docs/monitors.md, "ICMP ping"): one ICMP socket per
 * address family for the whole process, opened on first use through the native addon, whose
 * replies are matched to the echo requests waiting for them. Everything but the system calls is
 * here: building requests, parsing replies, timeouts, spacing and the figures.
 */
export class IcmpSockets {
  private readonly sockets = new Map<IcmpFamily, FamilySocket>();

  constructor(private readonly addon: IcmpAddon) {}

  /**
   * Sends `count` echo requests to `ip`, `intervalMs` apart, each waiting up to `timeoutMs` for
   * its reply; the figures as iputils `ping` prints them (round trips to the microsecond).
   * Rejects with IcmpUnavailableError when this process may not open an ICMP socket of the
   * family, and with the errno's error (its `code`) when a request could not be sent.
   */
  async ping(ip: string, family: IcmpFamily, count: number, timeoutMs: number, intervalMs: number): Promise<PingFigures> {
    const socket = this.socketOf(family);
    const answers: Promise<number | null>[] = [];
    for (let i = 0; i < count; i += 1) {
      if (i > 0) await sleep(intervalMs);
      answers.push(socket.echo(ip, timeoutMs));
    }
    const roundTrips = (await Promise.all(answers)).filter((ms): ms is number => ms !== null);
    return figuresOf(count, roundTrips);
  }

  /** How this process opens sockets of `family`, opening one if none is yet. */
  kindOf(family: IcmpFamily): IcmpSocketKind {
    return this.socketOf(family).kind;
  }

  /** Closes the sockets; a later check opens them again. */
  close(): void {
    for (const socket of this.sockets.values()) socket.close();
    this.sockets.clear();
  }

  private socketOf(family: IcmpFamily): FamilySocket {
    let socket = this.sockets.get(family);
    if (socket === undefined) {
      socket = new FamilySocket(this.addon, family);
      this.sockets.set(family, socket);
    }
    return socket;
  }
}

/** The in-process backend when the addon was built and loads, or why not. */
export function openIcmpSockets(): { sockets: IcmpSockets } | { sockets: null; reason: string } {
  const load = loadIcmpAddon();
  return load.addon === null ? { sockets: null, reason: load.reason } : { sockets: new IcmpSockets(load.addon) };
}

interface Waiting {
  sentAtMs: number;
  timer: NodeJS.Timeout;
  answer: (roundTripMs: number | null) => void;
}

/** One ICMP socket of the process and the echo requests waiting on it, by sequence. */
class FamilySocket {
  readonly kind: IcmpSocketKind;
  private readonly handle: IcmpSocketHandle;
  /**
   * A datagram socket's identifier is its local port, which the kernel writes in and delivers
   * replies by: only this socket's replies arrive, matched on sequence. A raw socket sees every
   * echo reply of the host: ours carry this identifier and our data.
   */
  private readonly identifier = process.pid & 0xffff;
  private readonly waiting = new Map<number, Waiting>();
  private nextSequence = Math.floor(Math.random() * 0x10000);

  constructor(
    private readonly addon: IcmpAddon,
    private readonly family: IcmpFamily,
  ) {
    try {
      const opened = addon.open(family, (bytes, _from, receivedAtMs) => this.receive(bytes, receivedAtMs));
      this.handle = opened.socket;
      this.kind = opened.raw ? 'raw' : 'datagram';
    } catch (error) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (typeof code === 'string' && NO_ICMP_SOCKET.has(code)) throw new IcmpUnavailableError(String(message));
      throw error;
    }
  }

  /** One echo request: its round trip in ms, or null when no reply came within `timeoutMs`. Throws when it could not be sent. */
  echo(ip: string, timeoutMs: number): Promise<number | null> {
    const sequence = this.freeSequence();
    const sentAtMs = this.send(echoRequest(this.family, this.identifier, sequence), ip);
    return new Promise((resolve) => {
      const answer = (roundTripMs: number | null): void => {
        clearTimeout(timer);
        this.waiting.delete(sequence);
        resolve(roundTripMs);
      };
      const timer = setTimeout(() => answer(null), timeoutMs);
      this.waiting.set(sequence, { sentAtMs, timer, answer });
    });
  }

  close(): void {
    this.addon.close(this.handle);
    for (const waiting of this.waiting.values()) waiting.answer(null);
  }

  private send(packet: Buffer, ip: string): number {
    try {
      return this.addon.send(this.handle, packet, ip);
    } catch {
      // An ICMP error about an earlier request (to any target) is left on the shared socket and
      // returned by the next call, once: a second failure is this request's own.
      return this.addon.send(this.handle, packet, ip);
    }
  }

  /** A sequence no request in flight holds (at most 65,536 at once per socket). */
  private freeSequence(): number {
    if (this.waiting.size >= 0x10000) throw new Error('65,536 echo requests already wait on this ICMP socket');
    while (this.waiting.has(this.nextSequence)) this.nextSequence = (this.nextSequence + 1) & 0xffff;
    const sequence = this.nextSequence;
    this.nextSequence = (sequence + 1) & 0xffff;
    return sequence;
  }

  private receive(bytes: Buffer, receivedAtMs: number): void {
    const reply = parseEchoReply(this.family, bytes, this.kind === 'raw');
    if (reply === null) return;
    if (this.kind === 'raw' && (reply.identifier !== this.identifier || !reply.data.equals(ECHO_DATA))) return;
    const waiting = this.waiting.get(reply.sequence);
    // Never below 0: the wall clock the kernel stamps with may be stepped back between the two.
    waiting?.answer(Math.max(0, receivedAtMs - waiting.sentAtMs));
  }
}

/** The figures of `sent` requests whose answered round trips are `roundTrips`, rounded to the microsecond as iputils prints them. */
export function figuresOf(sent: number, roundTrips: readonly number[]): PingFigures {
  const received = roundTrips.length;
  const micro = (ms: number): number => Math.round(ms * 1000) / 1000;
  const packetLoss = packetLossOf(sent, received);
  if (received === 0) return { sent, received, packetLoss, rttMin: null, rttAvg: null, rttMax: null };
  const total = roundTrips.reduce((sum, ms) => sum + ms, 0);
  return { sent, received, packetLoss, rttMin: micro(Math.min(...roundTrips)), rttAvg: micro(total / received), rttMax: micro(Math.max(...roundTrips)) };
}
