import { ValidationError } from '@uptime/errors';
import { MONITOR_STATUSES, type MonitorStatus } from '@uptime/db';
import { MONITOR_TYPES, isMonitorType, type MonitorType } from '@uptime/probe';

export interface MonitorFilters {
  status?: MonitorStatus;
  search?: string;
  /** A monitor type, or https: http monitors whose url is https. */
  type?: MonitorType | 'https';
  tags?: string[];
  createdAfter?: Date;
  updatedSince?: Date;
}

/** 20 tags (a monitor's most) of 50 characters, with a comma and a space between. */
export const TAG_FILTER_MAX_LENGTH = 1038;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A date or date-time in ISO 8601 form; `new Date()` alone would also take "1" or "12345" as years. */
const ISO_8601 = /^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?)?$/i;

function parseDate(name: string, raw: string | undefined, details: Record<string, string[]>): Date | undefined {
  if (raw === undefined) return undefined;
  // An unencoded "+02:00" offset arrives as " 02:00" (form decoding turns "+" into a space).
  raw = raw.replace(/(T\d\d:\d\d(?::\d\d(?:\.\d+)?)?) (\d\d:?\d\d)$/i, '$1+$2');
  const d = new Date(raw);
  if (!ISO_8601.test(raw) || Number.isNaN(d.getTime())) {
    details[name] = [`${name} must be an ISO 8601 date`];
    return undefined;
  }
  return d;
}

/**
 * The filters of GET /monitors (docs/monitors.md). `status=true` and `uptime=true` are accepted
 * and ignored: older clients send them.
 */
export function parseMonitorFilters(query: Record<string, unknown>): MonitorFilters {
  const details: Record<string, string[]> = {};
  const filters: MonitorFilters = {};
  const status = str(query.status);
  if (status !== undefined && status !== 'true') {
    if ((MONITOR_STATUSES as readonly string[]).includes(status)) filters.status = status as MonitorStatus;
    else details.status = [`status must be one of ${MONITOR_STATUSES.join(', ')}`];
  }
  const type = str(query.type);
  if (type !== undefined) {
    if (type === 'https' || isMonitorType(type)) filters.type = type;
    else details.type = [`type must be one of ${[...MONITOR_TYPES, 'https'].join(', ')}`];
  }
  const search = str(query.search);
  if (search !== undefined) {
    if (search.length > 200) details.search = ['search must be at most 200 characters'];
    filters.search = search;
  }
  const tags = str(query.tags);
  if (tags !== undefined && tags.length > TAG_FILTER_MAX_LENGTH) details.tags = [`tags must be at most ${TAG_FILTER_MAX_LENGTH} characters`];
  if (tags !== undefined)
    filters.tags = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  filters.createdAfter = parseDate('created_after', str(query.created_after), details);
  filters.updatedSince = parseDate('updated_since', str(query.updated_since), details);
  if (Object.keys(details).length > 0) throw new ValidationError('Invalid query', details);
  return filters;
}
