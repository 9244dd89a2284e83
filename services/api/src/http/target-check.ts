import { ValidationError } from '@uptime/errors';
import { refusedTargetReason } from '@uptime/probe';

/**
 * The SSRF guard at create and update of anything the service will call (a monitor's URL, an
 * agent's, an alert channel's; docs/configuration.md ALLOW_PRIVATE_TARGETS): an IP-literal URL
 * the probe would refuse can never be called, so it is refused now, as a 400 naming `field`.
 * Host names are decided when the call connects (the guard sees the resolved address).
 */
export function assertTargetAllowed(rules: { allowPrivateTargets: boolean }, url: string | null | undefined, field = 'url'): void {
  if (url == null || rules.allowPrivateTargets) return;
  const reason = refusedTargetReason(url);
  if (reason) throw new ValidationError(`Invalid body: ${field}`, { [field]: [`${field} is not allowed: ${reason}`] });
}
