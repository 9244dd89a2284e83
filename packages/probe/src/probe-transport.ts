import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { BeforeRequestHook } from 'got';
import { checkUrlTarget, createGuardedLookup, TargetRefusedError, type AddressPolicy } from './ssrf-guard';

/** The error of a check whose target redirected to a scheme other than http(s). */
export const UNSUPPORTED_REDIRECT = 'redirect to unsupported scheme';

/** The per-process connection machinery of one address policy. */
export interface ProbeTransport {
  agent: { http: HttpAgent; https: HttpsAgent };
  lookup: LookupFunction;
  /** Runs before every request got makes, redirects included. */
  beforeRequest: BeforeRequestHook;
}

/**
 * Every request gets a fresh connection (no keep-alive) and a full TLS handshake (no cached
 * sessions). A socket shared between checks would let one monitor's request decide what another
 * monitor's check reads: a request smuggled onto a pooled socket by one tenant answered the next
 * tenant's check. Per-monitor pools would not save connections either: a monitor is checked at
 * most every MIN_CHECK_INTERVAL_SECONDS, far longer than an idle socket may be kept, so only
 * redirects and retries within one check could reuse one. A fresh connection also measures what
 * a visitor sees: DNS, connect and TLS are in every check's timings. The agents stay per policy
 * because the lookup is: "allow any address" must never serve a guarded check.
 */
const transports = new WeakMap<AddressPolicy, ProbeTransport>();

export function transportFor(policy: AddressPolicy): ProbeTransport {
  let transport = transports.get(policy);
  if (!transport) {
    transport = {
      agent: { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false, maxCachedSessions: 0 }) },
      lookup: createGuardedLookup(policy),
      beforeRequest: (options) => {
        // got follows a redirect to any scheme and Node then throws a programming error; a target
        // that redirects there is a failed check (the first URL is checked by the API).
        if (options.url.protocol !== 'http:' && options.url.protocol !== 'https:') throw new TargetRefusedError(UNSUPPORTED_REDIRECT);
        const refusal = checkUrlTarget(options.url, policy);
        if (refusal !== null) throw new TargetRefusedError(refusal);
      },
    };
    transports.set(policy, transport);
  }
  return transport;
}
