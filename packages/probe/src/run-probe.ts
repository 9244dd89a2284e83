import type { CheckConfig, ProbeOptions } from './check-config';
import type { ProbeResult } from './http/result';
import { runHttpProbe } from './http/http-probe';
import { runPingProbe } from './ping/ping-probe';
import type { PingBackend } from './ping/ping-backend';
import { systemPinger } from './ping/pinger';
import { runTcpProbe } from './tcp/tcp-probe';
import { runDnsProbe } from './dns/dns-probe';
import { allowAnyAddress, allowPublicAddressesOnly, type AddressPolicy } from './ssrf-guard';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Runs one check of any type (docs/monitors.md#what-a-check-is) with its type's probe: up to
 * 1 + retryCount attempts, stopping at the first success. Resolves with a failed result for
 * anything the target did (including being an address the SSRF guard refuses); rejects only for
 * errors on our side (IcmpUnavailableError: this process cannot send ICMP).
 */
export function runProbe(config: CheckConfig, options: ProbeOptions): Promise<ProbeResult> {
  const policy = options.allowPrivateTargets ? allowAnyAddress : allowPublicAddressesOnly;
  return runProbeWithPolicy(config, policy, options.maxBodyBytes, options.pinger);
}

/**
 * runProbe with an explicit address policy instead of the on/off switch. For tests and special
 * deployments, e.g. "public addresses plus this one test server" to prove a redirect from an
 * allowed host to a refused one is stopped. Pass a long-lived function: keep-alive pools are
 * kept per policy function.
 */
export async function runProbeWithPolicy(
  config: CheckConfig,
  policy: AddressPolicy,
  maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
  pinger: PingBackend = systemPinger,
): Promise<ProbeResult> {
  // The API validates configs; one that slips through is our bug, not the target's failure.
  if (!(Number.isFinite(config.timeout) && config.timeout > 0)) throw new RangeError(`Invalid check timeout: ${config.timeout}`);
  if (!(Number.isInteger(config.retryCount) && config.retryCount >= 0)) throw new RangeError(`Invalid retry count: ${config.retryCount}`);
  switch (config.type) {
    case 'tcp':
      return runTcpProbe(config, policy);
    case 'dns':
      return runDnsProbe(config, policy);
    case 'ping':
      return runPingProbe(config, policy, pinger);
    case 'http':
      return runHttpProbe(config, policy, maxBodyBytes);
  }
}
