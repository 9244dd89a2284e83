import type { Monitor } from '@uptime/db';
import { ValidationError } from '@uptime/errors';
import { HEARTBEAT_LIMITS, cronProblem, isTimeZone, type MonitorType } from '@uptime/probe';
import type { FieldErrors } from '../http/validate';
import type { MonitorFieldsDto } from './monitor-fields.dto';

/** The fields only a heartbeat monitor has (docs/heartbeats.md). */
export const HEARTBEAT_FIELDS = ['heartbeat_period', 'heartbeat_cron', 'heartbeat_timezone', 'heartbeat_grace'] as const;

/** The schedule a heartbeat has once a body is applied to what is stored (`stored` null on create). */
function mergedSchedule(dto: MonitorFieldsDto, stored: Monitor | null): { period: number | null; cron: string | null } {
  return {
    period: dto.heartbeat_period !== undefined ? dto.heartbeat_period : (stored?.heartbeatPeriod ?? null),
    cron: dto.heartbeat_cron !== undefined ? dto.heartbeat_cron : (stored?.heartbeatCron ?? null),
  };
}

/**
 * The heartbeat rules of a valid body (docs/heartbeats.md), after the DTO: another type's monitor
 * has no heartbeat field; a heartbeat has exactly one of `heartbeat_period` and `heartbeat_cron`
 * once the body is applied to what is stored, a cron of five fields croner reads, and an IANA
 * `heartbeat_timezone`, which goes with a cron. A monitor does not change to or from heartbeat:
 * its ping URL and its probe's fields have nothing to become.
 */
export function assertHeartbeatRules(type: MonitorType, dto: MonitorFieldsDto, stored: Monitor | null): void {
  const problems: FieldErrors = {};
  const given = dto as Record<string, unknown>;
  if (stored !== null && dto.type !== undefined && dto.type !== stored.type && (dto.type === 'heartbeat' || stored.type === 'heartbeat')) {
    problems.type = [`a ${stored.type} monitor cannot become a ${dto.type} monitor: create a new one`];
  } else if (type !== 'heartbeat') {
    for (const field of HEARTBEAT_FIELDS) {
      if (given[field] !== undefined && given[field] !== null) problems[field] = [`${field} is a field of heartbeat monitors only`];
    }
  } else {
    const { period, cron } = mergedSchedule(dto, stored);
    if (period !== null && cron !== null) problems.heartbeat_cron = ['give heartbeat_period or heartbeat_cron, not both'];
    if (period === null && cron === null) problems.heartbeat_period = ['heartbeat_period or heartbeat_cron is required'];
    const cronRefusal = dto.heartbeat_cron ? cronProblem(dto.heartbeat_cron) : null;
    if (cronRefusal) problems.heartbeat_cron = [cronRefusal];
    if (dto.heartbeat_timezone) {
      if (!isTimeZone(dto.heartbeat_timezone)) problems.heartbeat_timezone = ['heartbeat_timezone must be an IANA time zone, e.g. Europe/Berlin'];
      else if (cron === null) problems.heartbeat_timezone = ['heartbeat_timezone goes with heartbeat_cron'];
    }
  }
  if (Object.keys(problems).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(problems).join(', ')}`, problems);
}

/**
 * What a heartbeat's row stores beyond the body: no url (an empty one), the default grace, and a
 * zone exactly when the schedule is a cron (UTC unless given). Another type's body is unchanged.
 */
export function withHeartbeatDefaults(type: MonitorType, dto: MonitorFieldsDto, stored: Monitor | null): MonitorFieldsDto {
  if (type !== 'heartbeat') return dto;
  const { cron } = mergedSchedule(dto, stored);
  const timezone = cron === null ? null : (dto.heartbeat_timezone ?? stored?.heartbeatTimezone ?? HEARTBEAT_LIMITS.timezoneDefault);
  return {
    ...dto,
    ...(stored === null ? { url: '', heartbeat_grace: dto.heartbeat_grace ?? HEARTBEAT_LIMITS.graceDefault } : {}),
    ...(timezone !== (stored?.heartbeatTimezone ?? null) || stored === null ? { heartbeat_timezone: timezone } : {}),
  };
}
