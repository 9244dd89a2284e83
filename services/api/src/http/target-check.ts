import { ValidationError } from '@uptime/errors';
import { refusedResolverReason, refusedTargetReason } from '@uptime/probe';

/**
 * The SSRF guard at create and update of anything the service will call (a monitor's URL, an
 * agent's, an alert channel's; docs/configuration.md ALLOW_PRIVATE_TARGETS): an IP-literal URL
 * the probe would refuse can never be called, so it is refused now, as a 400 naming `field`.
 * Host names are decided when the call connects (the guard sees the resolved address).
 */
export function assertTargetAllowed(rules: { allowPrivateTargets: boolean }, url: string | null | undefined, field = 'url'): void {
  assertAllowed(rules, url, field, refusedTargetReason);
}

/** The same guard for a dns check's resolver (`HOST` or `HOST:PORT`), the address its query goes to. */
export function assertResolverAllowed(rules: { allowPrivateTargets: boolean }, resolver: string | null | undefined, field = 'dns_resolver'): void {
  assertAllowed(rules, resolver, field, refusedResolverReason);
}

function assertAllowed(rules: { allowPrivateTargets: boolean }, target: string | null | undefined, field: string, reasonOf: (target: string) => string | null): void {
  if (target == null || rules.allowPrivateTargets) return;
  const reason = reasonOf(target);
  if (reason) throw new ValidationError(`Invalid body: ${field}`, { [field]: [`${field} is not allowed: ${reason}`] });
}
