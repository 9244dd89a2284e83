import { InvalidMonitorTypeError, ValidationError } from '@uptime/errors';
import { CHECK_FIELD_NAMES, CHECK_FIELDS, MONITOR_TYPE_FIELDS, MONITOR_TYPES, fieldProblems, isFieldOfType, isProbedType, type FieldSpec, type MonitorType } from '@uptime/probe';
import type { FieldErrors } from '../http/validate';

export const SUPPORTED_MONITOR_TYPES: readonly MonitorType[] = MONITOR_TYPES;

/**
 * docs/monitors.md: a present but unsupported type (ping, https, anything else) is
 * INVALID_MONITOR_TYPE, checked before other rules. A missing type is the caller's concern: on
 * create it is a VALIDATION_ERROR among the other missing fields; on update it is no change.
 */
export function assertMonitorType(body: Record<string, unknown>): void {
  const { type } = body;
  if (type !== undefined && !(SUPPORTED_MONITOR_TYPES as readonly unknown[]).includes(type)) throw new InvalidMonitorTypeError(type);
}

/** The fields of a valid body that `assertFieldsOfType` reads. */
type TypedBody = { url?: string };

/**
 * The rules that depend on the monitor's type (docs/monitors.md, "Monitor types"), after the DTO:
 * a field of another type is a 400 naming it, a url is one of the type's (`tcp://` for tcp, `dns://` for dns,
 * `http(s)://` for http), and a change of type comes with a url of the new type
 * (`urlRequired`). Null is what answers show for another type's field, so it passes. A heartbeat
 * has no check field at all, not even a url (its own fields: heartbeat-rules.ts).
 */
export function assertFieldsOfType(type: MonitorType, body: TypedBody, urlRequired: boolean): void {
  const problems: FieldErrors = {};
  for (const field of CHECK_FIELD_NAMES) {
    const wire = CHECK_FIELDS[field];
    const given = (body as Record<string, unknown>)[wire];
    if (!isFieldOfType(type, field) && given !== undefined && given !== null) problems[wire] = [`${wire} is not a field of ${type} monitors`];
  }
  if (!isProbedType(type)) {
    // Its own rules follow (heartbeat-rules.ts); a url given is refused above.
  } else if (body.url === undefined) {
    if (urlRequired) problems.url = [`url is required to change the type to ${type}`];
  } else {
    const url: FieldSpec = MONITOR_TYPE_FIELDS[type].url;
    if (fieldProblems(url, body.url).length > 0) problems.url = [`url of a ${type} monitor must be ${url.form.hint}`];
  }
  if (Object.keys(problems).length > 0) throw new ValidationError(`Invalid body: ${Object.keys(problems).join(', ')}`, problems);
}
