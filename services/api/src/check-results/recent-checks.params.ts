import { ValidationError } from '@uptime/errors';

/**
 * Bounds of GET /monitors/recent-checks: as many monitors as one page of the list holds (at most
 * 100), and enough checks per monitor for a row of beads (docs/web.md, "Beads").
 */
export const RECENT_CHECKS = { maxIds: 100, defaultLimit: 30, maxLimit: 50 } as const;

export interface RecentChecksQuery {
  /** Distinct, ascending. */
  ids: number[];
  limit: number;
}

const ID = /^\d{1,10}$/;

/** `ids` (comma-separated monitor ids, 1..100 of them) and `limit` (1..50, default 30). */
export function parseRecentChecksQuery(query: Record<string, unknown>): RecentChecksQuery {
  const details: Record<string, string[]> = {};
  const rawIds = query.ids;
  let ids: number[] = [];
  if (typeof rawIds !== 'string' || rawIds.trim() === '') {
    details.ids = ['ids is required: comma-separated monitor ids, such as 12,15'];
  } else {
    const parts = rawIds.split(',').map((p) => p.trim());
    const numbers = parts.map((p) => (ID.test(p) ? Number(p) : NaN));
    if (numbers.some((n) => !(n >= 1 && n <= 2_147_483_647))) details.ids = ['ids must be positive integers separated by commas'];
    else {
      ids = [...new Set(numbers)].sort((a, b) => a - b);
      if (ids.length > RECENT_CHECKS.maxIds) details.ids = [`ids may name at most ${RECENT_CHECKS.maxIds} monitors`];
    }
  }
  let limit: number = RECENT_CHECKS.defaultLimit;
  const rawLimit = query.limit;
  if (rawLimit !== undefined && rawLimit !== '') {
    limit = typeof rawLimit === 'string' && /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= RECENT_CHECKS.maxLimit)) details.limit = [`limit must be an integer from 1 to ${RECENT_CHECKS.maxLimit}`];
  }
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid query: ${Object.keys(details).join(', ')}`, details);
  return { ids, limit };
}
