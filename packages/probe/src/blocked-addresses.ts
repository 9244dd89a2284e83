import { BlockList, isIP } from 'node:net';

/**
 * Which IP addresses a check may never connect to (unless private targets are allowed): anything
 * that is not a public unicast address on the internet. Pure; no DNS.
 */

const NOT_PUBLIC_IPV4: ReadonlyArray<[network: string, prefix: number]> = [
  ['0.0.0.0', 8], // "this network"; connecting to 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata service 100.100.100.200)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. the 169.254.169.254 cloud metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments (incl. Oracle's metadata 192.0.0.192)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast 255.255.255.255
];

/** Global unicast (2000::/3) is the only IPv6 space that holds public hosts... */
const GLOBAL_UNICAST_IPV6: ReadonlyArray<[string, number]> = [['2000::', 3]];

/** ...minus these special-purpose blocks inside it. */
const NOT_PUBLIC_GLOBAL_IPV6: ReadonlyArray<[string, number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo tunnels, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

function blockListOf(ranges: ReadonlyArray<[string, number]>, family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}

const notPublicIpv4 = blockListOf(NOT_PUBLIC_IPV4, 'ipv4');
const globalUnicastIpv6 = blockListOf(GLOBAL_UNICAST_IPV6, 'ipv6');
const notPublicGlobalIpv6 = blockListOf(NOT_PUBLIC_GLOBAL_IPV6, 'ipv6');

/**
 * True when a check must not connect to `ip`. Accepts dotted IPv4, any IPv6 spelling (with or
 * without brackets or a zone id). Anything that is not an IP address is blocked: callers must
 * resolve names first, and failing closed is the safe answer to a malformed input.
 */
export function isBlockedAddress(ip: string): boolean {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  switch (isIP(bare)) {
    case 4:
      return notPublicIpv4.check(bare, 'ipv4');
    case 6:
      return isBlockedIpv6(bare);
    default:
      return true;
  }
}

function isBlockedIpv6(ip: string): boolean {
  const groups = ipv6Groups(ip);
  const embedded = embeddedIpv4(groups);
  // Mapped, translated and NAT64 addresses are reached as their IPv4 address, so that decides.
  if (embedded !== null && embedded.kind === 'reached-as-ipv4') return notPublicIpv4.check(embedded.address, 'ipv4');
  if (embedded !== null && notPublicIpv4.check(embedded.address, 'ipv4')) return true;
  return !globalUnicastIpv6.check(ip, 'ipv6') || notPublicGlobalIpv6.check(ip, 'ipv6');
}

interface EmbeddedIpv4 {
  address: string;
  /** 'reached-as-ipv4': the stack or a NAT64 gateway talks to the IPv4 host; '6to4': a tunnel does. */
  kind: 'reached-as-ipv4' | '6to4';
}

function embeddedIpv4(g: number[]): EmbeddedIpv4 | null {
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  const quad = (hi: number, lo: number): string => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  if (zeros(0, 5) && g[5] === 0xffff) return { address: quad(g[6], g[7]), kind: 'reached-as-ipv4' }; // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return { address: quad(g[6], g[7]), kind: 'reached-as-ipv4' }; // ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { address: quad(g[6], g[7]), kind: 'reached-as-ipv4' }; // NAT64 64:ff9b::/96
  if (g[0] === 0x2002) return { address: quad(g[1], g[2]), kind: '6to4' }; // 2002:AABB:CCDD::/48
  return null;
}

/** The eight 16-bit groups of a valid IPv6 address (as accepted by net.isIP). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const dottedTail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dottedTail) {
    const [a, b, c, d] = dottedTail.slice(1).map(Number);
    text = `${text.slice(0, dottedTail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((h) => parseInt(h, 16)) : []);
  const headGroups = parse(head);
  const tailGroups = parse(tail);
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...new Array<number>(missing).fill(0), ...tailGroups];
}
