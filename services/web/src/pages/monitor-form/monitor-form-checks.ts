import { DNS_FIELDS } from '@uptime/probe/src/dns/fields';
import type { FieldSpec } from '@uptime/probe/src/fields/field-spec';
import { MONITOR_OWN_FIELDS } from '@uptime/probe/src/fields/monitor-own-fields';
import { isDnsUrl, isHttpUrl, isPingUrl, isTcpUrl } from '@uptime/probe/src/fields/value-tests';
import { HTTP_FIELDS } from '@uptime/probe/src/http/fields';
import { PING_FIELDS } from '@uptime/probe/src/ping/fields';
import { TCP_FIELDS } from '@uptime/probe/src/tcp/fields';
import type { FormErrors, MonitorFormType, MonitorFormValues } from './monitor-form-values';

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

/** "At least 30 seconds" / "At most 300 seconds" / "A whole number of seconds", or null when within. */
export function integerProblem(text: string, min: number, max: number, unit: string): string | null {
  const t = text.trim();
  if (t === '') return `Required: ${unit === '' ? 'a whole number' : `a number of ${unit}`}, ${min} to ${max}`;
  if (!/^-?\d+$/.test(t)) return `A whole number${unit === '' ? '' : ` of ${unit}`}, ${min} to ${max}`;
  const n = Number(t);
  const of = (x: number) => (unit === '' ? String(x) : `${x} ${x === 1 ? unit.replace(/s$/, '') : unit}`);
  if (n < min) return `At least ${of(min)}`;
  if (n > max) return `At most ${of(max)}`;
  return null;
}

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

const API_PHRASES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/ must be at least (\d+) seconds$/, (m) => `At least ${m[1]} seconds`],
  [/ must not be less than (-?\d+)$/, (m) => `At least ${m[1]}`],
  [/ must not be greater than (-?\d+)$/, (m) => `At most ${m[1]}`],
  [/ should not be empty$/, () => 'Required'],
  [/ must be longer than or equal to (\d+) characters$/, (m) => `At least ${m[1]} characters`],
  [/ must be shorter than or equal to (\d+) characters$/, (m) => `At most ${m[1]} characters`],
  [/ must be at most (\d+) bytes as UTF-8$/, (m) => `At most ${m[1]} bytes (a letter outside English can take 2 to 4)`],
  [/ must be an integer number$/, () => 'A whole number'],
];

/**
 * An API refusal's message for a field in the same words as the form's own ("timeout must not be
 * less than 5" → "At least 5 seconds" for a field counted in seconds); one it has no words for
 * stays as the API wrote it.
 */
export function humanFieldMessage(field: string, message: string): string {
  const seconds = field === 'check_interval' || (field === 'timeout' && unitOf(HTTP_FIELDS.timeout) === 'seconds');
  for (const [pattern, say] of API_PHRASES) {
    const m = pattern.exec(message);
    if (!m) continue;
    const said = say(m);
    return seconds && /^At (least|most) \d+$/.test(said) ? `${said} seconds` : said;
  }
  return message;
}
