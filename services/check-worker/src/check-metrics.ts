import type { ServiceMetrics } from '@uptime/observability';
import type { CheckOutcome } from './check-outcome';

/**
 * Wraps the processor's `record` step: the verdict's duration is taken when the check hands its
 * outcome over, and `checks_total` counts it once the outcome is recorded (a failed write retries
 * the job, which would otherwise count the same check twice).
 */
export function meteredRecord(
  metrics: ServiceMetrics,
  record: (outcome: CheckOutcome) => Promise<void>,
): (outcome: CheckOutcome) => Promise<void> {
  return async (outcome) => {
    const result = outcome.result.ok ? 'up' : 'down';
    const seconds = Math.max(0, Date.now() - outcome.result.checkedAt.getTime()) / 1000;
    await record(outcome);
    const type = outcome.type ?? 'http';
    metrics.checks.inc({ result, type });
    metrics.checkDuration.observe({ result, type }, seconds);
  };
}
