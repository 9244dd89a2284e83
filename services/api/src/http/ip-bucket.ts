import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (`::` expanded; an embedded IPv4 tail as two groups). */
function ipv6Groups(ip: string): number[] {
  let address = ip.split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = address.split('::') as [string, string | undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The rate-limit bucket of a client address: an IPv4 address (also IPv4-mapped IPv6) is its own;
 * an IPv6 address counts as its first `prefix` bits, since one customer gets a whole /56 (or /48)
 * and can rotate addresses inside it at will.
 */
export function ipBucket(ip: string, prefix: number): string {
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  }
  const masked = groups.map((g, i) => {
    const bits = Math.min(16, Math.max(0, prefix - i * 16));
    return bits === 0 ? 0 : g & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${masked.map((g) => g.toString(16)).join(':')}/${prefix}`;
}
