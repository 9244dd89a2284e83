import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import got, { type Got, type Options as GotOptions } from 'got';
import { slimRequest } from './slim-request';
import { checkUrlTarget, createGuardedLookup, TargetRefusedError, type AddressPolicy } from '../ssrf-guard';

/** The error of a check whose target redirected to a scheme other than http(s). */
export const UNSUPPORTED_REDIRECT = 'redirect to unsupported scheme';

export const USER_AGENT = 'UptimeMonitor/0.1 (+https://github.com/uptime)';
/** Also in the message of a check that exceeds it (request-failure.ts). */
const MAX_REDIRECTS = 10;

/** The per-process connection machinery of one address policy. */
export interface ProbeTransport {
  /**
   * got with every option that is the same for all checks under the policy, merged and checked
   * once: got normalizes a request's options against its instance's (docs/capacity.md, "The
   * probe's CPU per check"), so the per-check options are only what a monitor configures.
   */
  client: Got;
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
      client: got.extend({
        // A monitor's own User-Agent, in any letter case, replaces this one: got lower-cases the
        // names of these headers merged with the request's, the request's last.
        headers: { 'user-agent': USER_AGENT },
        maxRedirects: MAX_REDIRECTS,
        throwHttpErrors: false,
        // Retries are the probe's own (whole attempts, counted); got's would hide failures.
        retry: { limit: 0 },
        agent: { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false, maxCachedSessions: 0 }) },
        // Typed as cacheable-lookup's overloads by got; it is called as dns.lookup, which this is.
        lookup: createGuardedLookup(policy) as unknown as GotOptions['lookup'],
        request: slimRequest,
        hooks: {
          // Runs before every request got makes, redirects included.
          beforeRequest: [
            (options) => {
              // got follows a redirect to any scheme and Node then throws a programming error; a target
              // that redirects there is a failed check (the first URL is checked by the API).
              if (options.url.protocol !== 'http:' && options.url.protocol !== 'https:') throw new TargetRefusedError(UNSUPPORTED_REDIRECT);
              const refusal = checkUrlTarget(options.url, policy);
              if (refusal !== null) throw new TargetRefusedError(refusal);
            },
          ],
        },
      }),
    };
    transports.set(policy, transport);
  }
  return transport;
}
