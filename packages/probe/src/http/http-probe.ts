import type { HttpCheckConfig } from '../check-config';
import type { ProbeResult } from './result';
import { runAttempt, type AttemptOutcome } from './probe-attempt';
import { responseRuleFailure } from './response-rules';
import type { AddressPolicy } from '../ssrf-guard';

/**
 * The http type's check (docs/monitors.md#what-a-check-is): up to 1 + retryCount requests,
 * stopping at the first that passes the response rules. Resolves with a failed result for anything
 * the target did (including being an address the SSRF guard refuses); rejects only for errors on
 * our side.
 */
export async function runHttpProbe(config: HttpCheckConfig, policy: AddressPolicy, maxBodyBytes: number): Promise<ProbeResult> {
  assertUsable(maxBodyBytes);
  const checkedAt = new Date();
  let attempts = 0;
  let outcome: AttemptOutcome;
  let error: string | null;
  do {
    attempts += 1;
    outcome = await runAttempt(config, { policy, maxBodyBytes });
    error = outcome.failure ?? (outcome.response ? responseRuleFailure(config, outcome.response) : 'No response');
  } while (error !== null && attempts <= config.retryCount);
  return {
    ok: error === null,
    statusCode: outcome.statusCode,
    responseTime: outcome.responseTime,
    error,
    checkedAt,
    attempts,
    timings: outcome.timings,
    certificateExpiresAt: outcome.certificateExpiresAt,
  };
}

/** The API validates configs; one that slips through is our bug, not the target's failure. */
function assertUsable(maxBodyBytes: number): void {
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) throw new RangeError(`Invalid body cap: ${maxBodyBytes}`);
}
