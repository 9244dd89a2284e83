/** Lengths of time in milliseconds, for the UTC arithmetic of buckets, partitions and windows. */
export const MINUTE_MS = 60_000;
export const FIVE_MINUTES_MS = 5 * MINUTE_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
