/**
 * Why a monitor reads `warning` (docs/monitors.md): `failing` while its failures are still below
 * `alert_threshold`, `slow` while its checks succeed but take longer than
 * `response_time_threshold`. Every other status has no reason (null).
 */
export type StatusReason = 'failing' | 'slow';

/** A successful check is slow when it took longer than the monitor's threshold (null: never). */
export function isSlow(responseTimeMs: number | null, thresholdMs: number | null | undefined): boolean {
  return thresholdMs != null && responseTimeMs !== null && responseTimeMs > thresholdMs;
}
