import { DNS_FIELDS } from '@uptime/probe/src/dns/fields';
import type { FieldSpec } from '@uptime/probe/src/fields/field-spec';
import { MONITOR_OWN_FIELDS } from '@uptime/probe/src/fields/monitor-own-fields';
import { isDnsUrl, isHttpUrl, isPingUrl, isTcpUrl } from '@uptime/probe/src/fields/value-tests';
import { HTTP_FIELDS } from '@uptime/probe/src/http/fields';
import { PING_FIELDS } from '@uptime/probe/src/ping/fields';
import { TCP_FIELDS } from '@uptime/probe/src/tcp/fields';
import { humanApiMessage, integerProblem, type FormErrors } from '../../app/field-checks';
import type { MonitorFormType, MonitorFormValues } from './monitor-form-values';

/**
 * What the monitor form checks before sending (docs/web.md, "Forms"): every field at once, in
 * words a person reads ("At least 30 seconds"), by the API's field name. Its bounds and formats
 * are the declarations the API validates with (packages/probe: each type's `fields.ts`, the
 * monitor's own `monitor-own-fields.ts`) and the install's interval floor
 * (`GET /monitors/limits`), never typed here again.
 */
export interface MonitorFormLimits {
  /** MIN_CHECK_INTERVAL_SECONDS of the install. */
  minCheckInterval: number;
}

const URL_FIELDS: Record<MonitorFormType, { spec: FieldSpec; test: (v: unknown) => boolean }> = {
  http: { spec: HTTP_FIELDS.url, test: isHttpUrl },
  tcp: { spec: TCP_FIELDS.url, test: isTcpUrl },
  dns: { spec: DNS_FIELDS.url, test: isDnsUrl },
  ping: { spec: PING_FIELDS.url, test: isPingUrl },
};

const unitOf = (spec: FieldSpec): string => (spec.form.hint === 'seconds' ? 'seconds' : '');

function bounded(errors: FormErrors, wire: string, text: string, min: number, max: number, unit: string): void {
  const problem = integerProblem(text, min, max, unit);
  if (problem) (errors[wire] ??= []).push(problem);
}

/** The form's problems by API field name; empty when it may be sent. */
export function checkMonitorForm(values: MonitorFormValues, limits: MonitorFormLimits): FormErrors {
  const errors: FormErrors = {};
  const name = values.name.trim();
  const own = MONITOR_OWN_FIELDS;
  if (name.length < own.name.minLength) errors.name = ['Required: a name for the monitor'];
  else if (name.length > own.name.maxLength) errors.name = [`At most ${own.name.maxLength} characters (now ${name.length})`];

  const url = values.url.trim();
  const target = URL_FIELDS[values.type];
  const shape = target.spec.form.hint ?? 'a full address';
  if (url === '') errors.url = [`Required: the address to check, ${shape}`];
  else if (target.spec.type.kind === 'url' && url.length > target.spec.type.maxLength) errors.url = [`At most ${target.spec.type.maxLength} characters`];
  else if (!target.test(url)) errors.url = [`Not a full address: write it as ${shape}, with a host`];

  bounded(errors, 'check_interval', values.check_interval, Math.max(limits.minCheckInterval, own.checkInterval.min), own.checkInterval.max, 'seconds');
  const timeout = HTTP_FIELDS.timeout;
  if (timeout.type.kind === 'integer') bounded(errors, 'timeout', values.timeout, timeout.type.min, timeout.type.max, unitOf(timeout));
  const retries = HTTP_FIELDS.retryCount;
  if (retries.type.kind === 'integer' && values.type !== 'ping') bounded(errors, 'retry_count', values.retry_count, retries.type.min, retries.type.max, unitOf(retries));
  return errors;
}

/**
 * An API refusal's message for a field in the same words as the form's own ("timeout must not be
 * less than 5" → "At least 5 seconds" for a field counted in seconds).
 */
export function humanFieldMessage(field: string, message: string): string {
  const seconds = field === 'check_interval' || (field === 'timeout' && unitOf(HTTP_FIELDS.timeout) === 'seconds');
  return humanApiMessage(message, seconds ? 'seconds' : '');
}
