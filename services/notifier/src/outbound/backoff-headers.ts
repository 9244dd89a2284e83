/** Statuses whose back-off headers are honoured: the receiver asks to be left alone for a while. */
const BACKOFF_STATUSES = new Set([429, 503]);

/** Far enough that a misread header (a date in ms, a typo) cannot stop a channel for days. */
export const MAX_BACKOFF_MS = 6 * 3600_000;

/**
 * When a receiver that answered `status` may be sent to again, from `Retry-After` (seconds or an
 * HTTP date, RFC 9110) or `X-RateLimit-Reset` (seconds to wait, or a Unix time in seconds, or an
 * HTTP date: providers differ). The later of the two wins; null when neither says anything usable
 * or the status is not 429/503. Capped at {@link MAX_BACKOFF_MS}.
 */
export function backoffUntil(status: number, headers: Record<string, string | string[] | undefined>, now: Date = new Date()): Date | null {
  if (!BACKOFF_STATUSES.has(status)) return null;
  const times = [parseHeader(headers['retry-after'], now), parseHeader(headers['x-ratelimit-reset'], now)].filter(
    (t): t is number => t !== null,
  );
  if (times.length === 0) return null;
  const until = Math.min(Math.max(...times), now.getTime() + MAX_BACKOFF_MS);
  return until > now.getTime() ? new Date(until) : null;
}

/** A Unix time in seconds is told from a delay by size: no delay is 30 years long. */
const UNIX_SECONDS_THRESHOLD = 1_000_000_000;

function parseHeader(raw: string | string[] | undefined, now: Date): number | null {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    return n >= UNIX_SECONDS_THRESHOLD ? n * 1000 : now.getTime() + n * 1000;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date;
}
