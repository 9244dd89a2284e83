/**
 * Upper bounds (ms, inclusive) of the latency histogram kept in every rollup bucket; a last,
 * open bucket holds anything slower. p95 read from it is exact to within one bucket.
 */
export const LATENCY_BUCKET_BOUNDS_MS = [
  10, 25, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10000, 20000, 30000, 60000,
] as const;

/** Number of histogram cells: one per bound plus the open one. */
export const LATENCY_BUCKET_COUNT = LATENCY_BUCKET_BOUNDS_MS.length + 1;

export function latencyBucketIndex(ms: number): number {
  const i = LATENCY_BUCKET_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BUCKET_BOUNDS_MS.length : i;
}

/** The upper bound of the cell holding the q-quantile (0..1), or null for an empty histogram. */
export function histogramQuantile(hist: readonly number[], q: number): number | null {
  const total = hist.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i] ?? 0;
    if (seen >= rank) return LATENCY_BUCKET_BOUNDS_MS[i] ?? LATENCY_BUCKET_BOUNDS_MS[LATENCY_BUCKET_BOUNDS_MS.length - 1] * 2;
  }
  return null;
}
