import { LATENCY_BUCKET_COUNT, latencyBucketIndex } from '@uptime/db';

export interface RollupInput {
  monitorId: number;
  checkedAt: Date;
  ok: boolean;
  responseTime: number | null;
}

export interface RollupRow {
  monitorId: number;
  bucket: Date;
  checks: number;
  successes: number;
  rtCount: number;
  rtSum: number;
  rtMin: number | null;
  rtMax: number | null;
  hist: number[];
}

/** Aggregates results into one row per (monitor, bucket) of `bucketMs`, sorted so locks are taken in one order. */
export function rollupRows(inputs: readonly RollupInput[], bucketMs: number): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const r of inputs) {
    const bucket = Math.floor(r.checkedAt.getTime() / bucketMs) * bucketMs;
    const key = `${r.monitorId}:${bucket}`;
    let row = rows.get(key);
    if (!row) {
      row = { monitorId: r.monitorId, bucket: new Date(bucket), checks: 0, successes: 0, rtCount: 0, rtSum: 0, rtMin: null, rtMax: null, hist: new Array<number>(LATENCY_BUCKET_COUNT).fill(0) };
      rows.set(key, row);
    }
    row.checks += 1;
    if (r.ok) row.successes += 1;
    if (r.responseTime !== null) {
      row.rtCount += 1;
      row.rtSum += r.responseTime;
      row.rtMin = row.rtMin === null ? r.responseTime : Math.min(row.rtMin, r.responseTime);
      row.rtMax = row.rtMax === null ? r.responseTime : Math.max(row.rtMax, r.responseTime);
      row.hist[latencyBucketIndex(r.responseTime)]! += 1;
    }
  }
  return [...rows.values()].sort((a, b) => a.monitorId - b.monitorId || a.bucket.getTime() - b.bucket.getTime());
}
