import { ValidationError } from '@uptime/errors';
import { parseIsoDate } from '../notifications/notifications.params';

export interface HistoryQuery {
  from?: Date;
  to?: Date;
  limit: number;
}

const HISTORY_LIMIT = { default: 100, max: 1000 };

/** `from`, `to` (ISO 8601; a time without zone is UTC) and `limit` of GET /monitors/{id}/history. */
export function parseHistoryQuery(query: Record<string, unknown>): HistoryQuery {
  const details: Record<string, string[]> = {};
  const date = (name: 'from' | 'to'): Date | undefined => {
    const raw = query[name];
    if (raw === undefined || raw === '') return undefined;
    const parsed = typeof raw === 'string' ? parseIsoDate(raw) : undefined;
    if (!parsed) details[name] = [`${name} must be an ISO 8601 date or date-time`];
    return parsed;
  };
  const from = date('from');
  const to = date('to');
  let limit = HISTORY_LIMIT.default;
  const rawLimit = query.limit;
  if (rawLimit !== undefined && rawLimit !== '') {
    limit = typeof rawLimit === 'string' && /^\d{1,6}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= HISTORY_LIMIT.max)) details.limit = [`limit must be an integer from 1 to ${HISTORY_LIMIT.max}`];
  }
  if (from && to && from > to) details.from = ['from must not be after to'];
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid query: ${Object.keys(details).join(', ')}`, details);
  return { from, to, limit };
}
