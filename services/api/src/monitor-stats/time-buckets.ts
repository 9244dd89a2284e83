/** Bucket sizes of the rollup tables, in milliseconds (defined once in @uptime/db). Buckets are aligned to the Unix epoch (UTC). */
export { DAY_MS, FIVE_MINUTES_MS, HOUR_MS } from '@uptime/db';

export const floorTo = (t: Date | number, stepMs: number): Date => {
  const ms = typeof t === 'number' ? t : t.getTime();
  return new Date(Math.floor(ms / stepMs) * stepMs);
};

export const ceilTo = (t: Date | number, stepMs: number): Date => {
  const ms = typeof t === 'number' ? t : t.getTime();
  return new Date(Math.ceil(ms / stepMs) * stepMs);
};
