import { randomBytes } from 'node:crypto';

/** ICMP types of echo requests and replies, per address family (RFC 792, RFC 4443). */
const ECHO_REQUEST = { 4: 8, 6: 128 } as const;
const ECHO_REPLY = { 4: 0, 6: 129 } as const;
const HEADER_BYTES = 8;
/** The data an echo request carries: 56 bytes, as iputils `ping` sends by default (84 bytes on the wire with IPv4). */
export const ECHO_DATA_BYTES = 56;

export type IcmpFamily = 4 | 6;

/** The part of an echo reply a check matches on. */
export interface EchoReply {
  identifier: number;
  sequence: number;
  /** The data, which an answer sends back unchanged. */
  data: Buffer;
}

/**
 * The data of this process's echo requests: random, so a raw socket (which sees every echo reply
 * of the host) takes as ours only a reply that carries it back, whatever its identifier.
 */
export const ECHO_DATA: Buffer = randomBytes(ECHO_DATA_BYTES);

/**
 * An echo request. The IPv4 checksum is ours to compute; over IPv6 the kernel computes it (the
 * pseudo-header has addresses only it knows), and on a datagram socket it also replaces the
 * identifier with the socket's own.
 */
export function echoRequest(family: IcmpFamily, identifier: number, sequence: number, data: Buffer = ECHO_DATA): Buffer {
  const packet = Buffer.allocUnsafe(HEADER_BYTES + data.length);
  packet.writeUInt8(ECHO_REQUEST[family], 0);
  packet.writeUInt8(0, 1);
  packet.writeUInt16BE(0, 2);
  packet.writeUInt16BE(identifier & 0xffff, 4);
  packet.writeUInt16BE(sequence & 0xffff, 6);
  data.copy(packet, HEADER_BYTES);
  if (family === 4) packet.writeUInt16BE(internetChecksum(packet), 2);
  return packet;
}

/**
 * The echo reply in a datagram, or null for anything else. A raw IPv4 socket delivers the IP
 * header in front (its length is in the first byte); datagram and IPv6 sockets deliver the ICMP
 * message alone.
 */
export function parseEchoReply(family: IcmpFamily, datagram: Buffer, withIpHeader: boolean): EchoReply | null {
  let start = 0;
  if (withIpHeader && family === 4) {
    if (datagram.length < 20 || datagram[0]! >> 4 !== 4) return null;
    start = (datagram[0]! & 0x0f) * 4;
  }
  if (datagram.length < start + HEADER_BYTES || datagram[start] !== ECHO_REPLY[family] || datagram[start + 1] !== 0) return null;
  return { identifier: datagram.readUInt16BE(start + 4), sequence: datagram.readUInt16BE(start + 6), data: datagram.subarray(start + HEADER_BYTES) };
}

/** The one's complement of the one's complement sum of 16-bit words (RFC 1071). */
export function internetChecksum(bytes: Buffer): number {
  let sum = 0;
  for (let i = 0; i + 1 < bytes.length; i += 2) sum += bytes.readUInt16BE(i);
  if (bytes.length % 2 === 1) sum += bytes[bytes.length - 1]! << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}
