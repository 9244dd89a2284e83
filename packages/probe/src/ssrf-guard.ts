import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isBlockedAddress } from './blocked-addresses';
import { dnsNameOf, hostPortOf, pingHostOf, tcpTargetOf } from './fields/value-tests';

export { isBlockedAddress };

/**
 * SSRF protection. The decision is taken on the address a socket is about to connect to, in two
 * places that together see every connection the probe makes:
 * - a DNS lookup wrapper (`createGuardedLookup`) for host names — so a name that resolves to a
 *   private address (localhost, DNS rebinding) is refused after resolution, not before;
 * - a URL check (`checkUrlTarget`) for IP-literal hosts, which Node connects to without any
 *   lookup; the probe runs it before every request, redirects included.
 */

/** Decides whether the probe may connect to an IP address. */
export type AddressPolicy = (ip: string) => boolean;

/** ALLOW_PRIVATE_TARGETS: any address may be checked (self-hosted installs, tests). */
export const allowAnyAddress: AddressPolicy = () => true;

/** The hosted default: only public unicast addresses. */
export const allowPublicAddressesOnly: AddressPolicy = (ip) => !isBlockedAddress(ip);

export const TARGET_REFUSED_CODE = 'ERR_TARGET_REFUSED';

/** The target is not a place the probe may go; a failed check, not an error of ours. */
export class TargetRefusedError extends Error {
  readonly code = TARGET_REFUSED_CODE;

  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

function refusalMessage(address: string, hostname?: string): string {
  const origin = hostname === undefined ? '' : ` (resolved from ${hostname})`;
  return `Target address ${address}${origin} is not allowed (private or reserved range)`;
}

/**
 * Why the probe must not request `url` under `policy`, or null. Host names are not resolved here
 * (that happens at connect time, in the guarded lookup).
 */
export function checkUrlTarget(url: URL, policy: AddressPolicy): string | null {
  // got turns http://unix:/path/to.sock:/request into a request over a local socket file.
  if (url.hostname === 'unix') return 'UNIX socket targets are not allowed';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !policy(host)) return refusalMessage(host);
  return null;
}

/**
 * For the API at create/update time: why a monitor URL can never be checked by a guarded probe,
 * or null. Only IP-literal hosts can be judged here; names are decided when the check connects.
 * WHATWG URL parsing already turns 2130706433, 0x7f.1, 0177.0.0.1 and 127.1 into 127.0.0.1.
 */
export function refusedTargetReason(url: string): string | null {
  // A dns:// url names what is asked, not where the check connects: its resolver is judged instead (refusedResolverReason).
  if (dnsNameOf(url) !== null) return null;
  let parsed: URL;
  try {
    // A tcp://, tls:// or ping:// target's host, normalised as an http URL's is (fields/value-tests.ts).
    const bracketed = (host: string): string => (host.includes(':') ? `[${host}]` : host);
    const tcp = tcpTargetOf(url);
    const ping = tcp === null ? pingHostOf(url) : null;
    parsed = new URL(tcp !== null ? `http://${bracketed(tcp.host)}:${tcp.port}` : ping !== null ? `http://${bracketed(ping)}` : url);
  } catch {
    return 'Invalid URL';
  }
  return checkUrlTarget(parsed, allowPublicAddressesOnly);
}

/**
 * For the API at create/update time: why a dns check's resolver (`HOST` or `HOST:PORT`) can
 * never be asked by a guarded probe, or null. As for a url, only an IP literal is judged here; a
 * name is judged on its addresses when the check connects.
 */
export function refusedResolverReason(resolver: string): string | null {
  const target = hostPortOf(resolver, 53);
  if (target === null) return 'Invalid resolver';
  return isIP(target.host) !== 0 && !allowPublicAddressesOnly(target.host) ? refusalMessage(target.host) : null;
}

/** Resolves every address of a host name (dns.lookup with all: true). */
export type ResolveAllAddresses = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: ResolveAllAddresses = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A drop-in for dns.lookup (the `lookup` option of net/http/got) that refuses a host name when
 * ANY of its addresses is refused: Node may try them all (autoSelectFamily), and a name mixing
 * public and private addresses is a rebinding attempt rather than a real site.
 */
export function createGuardedLookup(policy: AddressPolicy, resolveAll: ResolveAllAddresses = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find((entry) => !policy(entry.address));
      if (refused) return callback(new TargetRefusedError(refusalMessage(refused.address, hostname)), '');
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The guarded lookup of each policy, kept as long as the policy (as http's transports are). */
const lookups = new WeakMap<AddressPolicy, LookupFunction>();

/** `createGuardedLookup(policy)`, made once per policy: the lookup the tcp and ping probes connect with, and a dns check finds its resolver with. */
export function guardedLookupFor(policy: AddressPolicy): LookupFunction {
  let lookup = lookups.get(policy);
  if (!lookup) lookups.set(policy, (lookup = createGuardedLookup(policy)));
  return lookup;
}
