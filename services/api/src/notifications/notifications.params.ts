import { ValidationError } from '@uptime/errors';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, type NotificationStatus, type NotificationType } from '@uptime/db';

/** The filters of GET /notifications (monitor_id, type, status, since; docs/notifications.md). */
export interface NotificationFilters {
  monitorId?: number;
  type?: NotificationType;
  status?: NotificationStatus;
  /** Keeps notifications with `started_at >= since`. */
  since?: Date;
}

type Details = Record<string, string[]>;

const POSITIVE_INT = /^\d{1,10}$/;
const PG_INT_MAX = 2_147_483_647;

// A date, or a date-time with optional seconds, fraction and zone. Stricter than `new Date()`,
// which also accepts free text such as "March 7" and would make the filter's meaning guesswork.
/** The longest text ISO_8601 matches: `2026-11-01T10:00:00.123456789+02:00`. */
export const ISO_DATE_MAX_LENGTH = 35;
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * One query value: absent or empty is "no filter"; a repeated parameter (an array) or a nested
 * object cannot mean one filter value, so it is refused rather than silently ignored.
 */
function single(query: Record<string, unknown>, name: string, details: Details): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') {
    details[name] = [`${name} must be given once`];
    return undefined;
  }
  return raw;
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], details: Details): T | undefined {
  if (raw === undefined) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  details[name] = [`${name} must be one of ${allowed.join(', ')}`];
  return undefined;
}

function parseMonitorId(raw: string | undefined, details: Details): number | undefined {
  if (raw === undefined) return undefined;
  const value = POSITIVE_INT.test(raw) ? Number(raw) : NaN;
  if (value >= 1 && value <= PG_INT_MAX) return value;
  details.monitor_id = ['monitor_id must be a positive integer'];
  return undefined;
}

/**
 * ISO 8601 to a Date. A time without a zone is read as UTC (the API's times are UTC: docs/api.md), never
 * as the server's local time. Calendar-impossible dates (2026-02-30) are refused, where
 * `new Date()` would roll them over into the next month.
 */
export function parseIsoDate(raw: string): Date | undefined {
  const m = ISO_8601.exec(raw);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, zone] = m;
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (calendar.getUTCFullYear() !== Number(y) || calendar.getUTCMonth() !== Number(mo) - 1 || calendar.getUTCDate() !== Number(d)) return undefined;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return undefined;
  const normalised = raw.replace(' ', 'T');
  const date = new Date(h !== undefined && zone === undefined ? `${normalised}Z` : normalised);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Reads the list filters; every invalid value is reported at once as a VALIDATION_ERROR. */
export function parseNotificationFilters(query: Record<string, unknown>): NotificationFilters {
  const details: Details = {};
  const filters: NotificationFilters = {};
  const monitorId = parseMonitorId(single(query, 'monitor_id', details), details);
  if (monitorId !== undefined) filters.monitorId = monitorId;
  const type = oneOf('type', single(query, 'type', details), NOTIFICATION_TYPES, details);
  if (type !== undefined) filters.type = type;
  const status = oneOf('status', single(query, 'status', details), NOTIFICATION_STATUSES, details);
  if (status !== undefined) filters.status = status;
  const since = single(query, 'since', details);
  if (since !== undefined) {
    const date = parseIsoDate(since);
    if (date) filters.since = date;
    else details.since = ['since must be an ISO 8601 date or date-time'];
  }
  if (Object.keys(details).length > 0) throw new ValidationError(`Invalid query: ${Object.keys(details).join(', ')}`, details);
  return filters;
}
