import { getServers } from 'node:dns';
import { isIP } from 'node:net';
import { hostPortOf } from '../fields/value-tests';
import { guardedLookupFor, TargetRefusedError, type AddressPolicy } from '../ssrf-guard';
import type { DnsServer } from './dns-exchange';

/** The port of a resolver given without one. */
export const DNS_PORT = 53;

/**
 * The address a dns check sends its query to, or why it may not (a failed check, not our error).
 * A chosen resolver goes through the SSRF guard: an IP literal judged as is, a name on every
 * address it resolves to, and the query goes to the address judged (no second lookup to rebind).
 * Without one, the first resolver of the worker's system: the operator's own configuration, the
 * one every lookup of the worker already trusts, so it is not judged (docs/security.md).
 */
export async function resolverAddress(resolver: string | null, policy: AddressPolicy): Promise<DnsServer | { failure: string }> {
  if (resolver === null) {
    const system = getServers()[0];
    const server = system === undefined ? null : hostPortOf(system, DNS_PORT);
    return server === null ? { failure: 'No DNS resolver configured on this worker' } : { address: server.host, port: server.port };
  }
  const target = hostPortOf(resolver, DNS_PORT);
  if (target === null) return { failure: `Invalid resolver: ${resolver}` };
  if (isIP(target.host) !== 0) {
    return policy(target.host)
      ? { address: target.host, port: target.port }
      : { failure: new TargetRefusedError(`Resolver address ${target.host} is not allowed (private or reserved range)`).message };
  }
  return new Promise((resolve) => {
    guardedLookupFor(policy)(target.host, { all: false }, (error, address) => {
      if (!error) return resolve({ address: address as string, port: target.port });
      const code = (error as NodeJS.ErrnoException).code;
      resolve({ failure: error instanceof TargetRefusedError ? error.message : `Resolver ${target.host} not found (${code ?? error.message})` });
    });
  });
}
