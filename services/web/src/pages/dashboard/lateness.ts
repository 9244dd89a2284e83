import type { Schema } from '@uptime/client';

/**
 * What the check lag means for the person reading (docs/reliability.md): null while checks keep
 * their schedule; otherwise the sentence the alert shows. `late` is a lag above 10 % of the
 * checks' interval, so on short intervals it is under a second: said to a tenth, never "0 s late".
 */
export function latenessMessage(checks: Schema<'Dashboard'>['checks']): string | null {
  if (!checks.late) return null;
  if (checks.lag_p99_seconds === null) return 'No check-worker is running';
  const lag = checks.lag_p99_seconds;
  return `Checks are running ${lag < 10 ? lag.toFixed(1) : Math.round(lag)} s late: add a check-worker`;
}
