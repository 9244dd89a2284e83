import { ValidationError } from '@uptime/errors';
import { parseWithRequired } from '../http/required-fields';
import { assertResolverAllowed, assertTargetAllowed } from '../http/target-check';
import { parseInput, type FieldErrors } from '../http/validate';
import { MonitorFieldsDto } from './monitor-fields.dto';
import { assertFieldsOfType, assertMonitorType } from './monitor-type';
import { assertHeartbeatRules } from './heartbeat-rules';

/** The rules of a monitor body that come from configuration. */
export interface MonitorInputRules {
  /** MIN_CHECK_INTERVAL_SECONDS. */
  minCheckIntervalSeconds: number;
  /** ALLOW_PRIVATE_TARGETS: when false, IP-literal URLs in refused ranges are a 400. */
  allowPrivateTargets: boolean;
}

/** The fields a new monitor must have (docs/monitors.md); a heartbeat has no url (docs/heartbeats.md). */
export const MONITOR_REQUIRED_ON_CREATE = ['name', 'url', 'type'] as const;
const HEARTBEAT_REQUIRED_ON_CREATE = ['name', 'type'] as const;

const isJsonObject = (body: unknown): body is Record<string, unknown> => body !== null && typeof body === 'object' && !Array.isArray(body);

function assertInterval(rules: MonitorInputRules, interval: number | undefined): void {
  if (interval !== undefined && interval < rules.minCheckIntervalSeconds) {
    throw new ValidationError('Invalid body: check_interval', {
      check_interval: [`check_interval must be at least ${rules.minCheckIntervalSeconds} seconds`],
    });
  }
}

/** The rules beyond the DTO, after it: the interval floor, then the target (and a dns check's resolver). */
function assertConfiguredRules(dto: MonitorFieldsDto, rules: MonitorInputRules): MonitorFieldsDto {
  assertInterval(rules, dto.check_interval);
  assertTargetAllowed(rules, dto.url);
  // A declared field the class does not list (monitor-fields.dto.ts): validated, untyped.
  assertResolverAllowed(rules, (dto as { dns_resolver?: string | null }).dns_resolver);
  return dto;
}

/**
 * Every rule of a create body, in the order they answer: not an object; a present but
 * unsupported type (INVALID_MONITOR_TYPE, docs/monitors.md); then every invalid field and every
 * missing required one together, so one answer names all of them (a missing type is one of them);
 * then the fields and url of the type, the interval floor and the target.
 */
export async function parseMonitorCreate(body: unknown, rules: MonitorInputRules): Promise<MonitorFieldsDto> {
  if (isJsonObject(body)) assertMonitorType(body);
  const required = isJsonObject(body) && body.type === 'heartbeat' ? HEARTBEAT_REQUIRED_ON_CREATE : MONITOR_REQUIRED_ON_CREATE;
  const dto = await parseWithRequired(MonitorFieldsDto, body, required);
  assertFieldsOfType(dto.type!, dto, false);
  assertHeartbeatRules(dto.type!, dto, null);
  return assertConfiguredRules(dto, rules);
}

/** Every rule of a PUT or PATCH body (all fields optional), in the order of parseMonitorCreate. */
export async function parseMonitorPatch(body: unknown, rules: MonitorInputRules): Promise<MonitorFieldsDto> {
  if (isJsonObject(body)) assertMonitorType(body);
  const dto = await parseInput(MonitorFieldsDto, body);
  // Without a type, the stored one decides, once the service has read it (updateMonitor()).
  if (dto.type !== undefined) assertFieldsOfType(dto.type, dto, true);
  return assertConfiguredRules(dto, rules);
}

/**
 * A PATCH body nested in another body under `path` (bulk update's `settings`): the same rules,
 * with each field named by its path (`settings.check_interval`).
 */
export async function parseNestedMonitorPatch(
  body: Record<string, unknown>,
  rules: MonitorInputRules,
  path: string,
): Promise<MonitorFieldsDto> {
  try {
    return await parseMonitorPatch(body, rules);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const prefixed: FieldErrors = Object.fromEntries(
      Object.entries((err.details ?? {}) as FieldErrors).map(([k, v]) => [`${path}.${k}`, v]),
    );
    throw new ValidationError(`Invalid body: ${Object.keys(prefixed).join(', ')}`, prefixed);
  }
}
