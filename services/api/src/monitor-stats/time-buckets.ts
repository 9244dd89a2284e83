/** Bucket sizes of the rollup tables, in milliseconds. Buckets are aligned to the Unix epoch (UTC). */
export const FIVE_MINUTES_MS = 300_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export const floorTo = (t: Date | number, stepMs: number): Date => {
  const ms = typeof t === 'number' ? t : t.getTime();
  return new Date(Math.floor(ms / stepMs) * stepMs);
};

export const ceilTo = (t: Date | number, stepMs: number): Date => {
  const ms = typeof t === 'number' ? t : t.getTime();
  return new Date(Math.ceil(ms / stepMs) * stepMs);
};
