import type { Schema } from '@uptime/client';
import type { FormErrors } from '../../app/field-checks';
import { PING_FIELDS } from '@uptime/probe/src/ping/fields';
import { DECLARED_FORM_FIELDS } from './check-field-labels';

/**
 * The monitor form as a person fills it (text in, text out), and its one mapping to the API's
 * body. Kept free of React so it is tested without a browser (services/web/test).
 */
export interface MonitorFormValues {
  name: string;
  /** Which fields the form shows and sends (check-field-labels.ts, MonitorFormFields.tsx). */
  type: MonitorFormType;
  url: string;
  method: NonNullable<Schema<'Monitor'>['method']>;
  /** Seconds, as typed */
  check_interval: string;
  timeout: string;
  retry_count: string;
  /** Milliseconds; empty: off */
  response_time_threshold: string;
  recovery_threshold: string;
  /** Not edited by this form: carried through, so saving the form keeps the monitor's dependencies. */
  depends_on: number[];
  /** "200, 201, 301" */
  expected_status: string;
  /** One "Name: value" per line */
  headers: string;
  body: string;
  expected_content: string;
  excluded_content: string;
  json_path: string;
  expected_json_value: string;
  follow_redirects: boolean;
  verify_ssl: boolean;
  /** tcp only: sent once connected */
  tcp_send: string;
  /** dns only: the question, the resolver (empty: the worker's system resolver) and the transport */
  dns_record_type: string;
  dns_resolver: string;
  dns_protocol: string;
  /** dns only: one expected value per line */
  expected_dns_values: string;
  /** ping only: echo requests per check, as typed */
  ping_count: string;
  /** Comma-separated */
  tags: string;
  locations: string;
  /** Declared check fields the form shows by their kind alone (check-field-labels.ts), by API name. */
  declared: Record<string, string | boolean>;
}

export type MonitorBody = Schema<'MonitorCreate'>;
/** The types this form edits: the probed ones (a heartbeat has its own fields, docs/heartbeats.md). */
export type MonitorFormType = Exclude<Schema<'Monitor'>['type'], 'heartbeat'>;

/** The fields only an http monitor has: a tcp, dns or ping monitor's body never carries them (docs/monitors.md). */
const HTTP_ONLY = ['method', 'headers', 'body', 'expected_status', 'follow_redirects', 'json_path', 'expected_json_value'] as const;
/** The fields http and tcp monitors share that a dns or ping monitor does not have. */
const CONNECTION_ONLY = ['verify_ssl', 'expected_content', 'excluded_content'] as const;

/** A new ping monitor's echo requests (packages/probe/src/ping/fields.ts). */
const DEFAULT_PING_COUNT = String(PING_FIELDS.pingCount.default);

/** A new monitor's form, with the user's default interval and timeout. */
export function emptyMonitorForm(
  defaults?: Pick<Schema<'Preferences'>, 'default_check_interval' | 'default_timeout' | 'default_locations'>,
): MonitorFormValues {
  return {
    name: '',
    type: 'http',
    url: '',
    method: 'GET',
    check_interval: String(defaults?.default_check_interval ?? 300),
    timeout: String(defaults?.default_timeout ?? 30),
    retry_count: '0',
    response_time_threshold: '',
    recovery_threshold: '1',
    depends_on: [],
    expected_status: '',
    headers: '',
    body: '',
    expected_content: '',
    excluded_content: '',
    json_path: '',
    expected_json_value: '',
    follow_redirects: true,
    verify_ssl: true,
    tcp_send: '',
    dns_record_type: 'A',
    dns_resolver: '',
    dns_protocol: 'udp',
    expected_dns_values: '',
    ping_count: DEFAULT_PING_COUNT,
    tags: '',
    locations: (defaults?.default_locations ?? []).join(', '),
    declared: Object.fromEntries(DECLARED_FORM_FIELDS.map((f) => [f.wire, f.initial])),
  };
}

/** An existing monitor in the form. */
export function monitorToForm(m: Schema<'Monitor'>): MonitorFormValues {
  return {
    name: m.name,
    type: m.type === 'heartbeat' ? 'http' : m.type,
    url: m.url ?? '',
    // An http form: a field another type's monitor does not have (null) starts at http's default.
    method: m.method ?? 'GET',
    check_interval: String(m.check_interval),
    timeout: String(m.timeout ?? 30),
    retry_count: String(m.retry_count ?? 0),
    response_time_threshold: m.response_time_threshold === null ? '' : String(m.response_time_threshold),
    recovery_threshold: String(m.recovery_threshold),
    depends_on: m.depends_on,
    expected_status: (m.expected_status ?? []).join(', '),
    headers: Object.entries(m.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
    body: m.body ?? '',
    expected_content: m.expected_content ?? '',
    excluded_content: m.excluded_content ?? '',
    json_path: m.json_path ?? '',
    expected_json_value: m.expected_json_value ?? '',
    follow_redirects: m.follow_redirects ?? true,
    verify_ssl: m.verify_ssl ?? true,
    tcp_send: m.tcp_send ?? '',
    dns_record_type: m.dns_record_type ?? 'A',
    dns_resolver: m.dns_resolver ?? '',
    dns_protocol: m.dns_protocol ?? 'udp',
    expected_dns_values: (m.expected_dns_values ?? []).join('\n'),
    ping_count: m.ping_count === null ? DEFAULT_PING_COUNT : String(m.ping_count),
    tags: m.tags.join(', '),
    locations: m.locations.join(', '),
    declared: Object.fromEntries(
      DECLARED_FORM_FIELDS.map((f) => {
        const value = (m as Record<string, unknown>)[f.wire];
        return [f.wire, f.kind === 'boolean' ? value === true : value === null || value === undefined ? '' : String(value)];
      }),
    ),
  };
}

export type { FormErrors };

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** "Name: value" lines as headers; a line without a name and colon is an error of `headers`. */
function headersOf(text: string, errors: FormErrors): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) {
      (errors.headers ??= []).push(`line ${i + 1}: write "Name: value"`);
      continue;
    }
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Comma-separated status codes; each part that is not a whole number is an error of `expected_status`. */
function statusCodesOf(text: string, errors: FormErrors): number[] {
  const codes: number[] = [];
  for (const part of list(text)) {
    const n = Number(part);
    if (!Number.isInteger(n)) (errors.expected_status ??= []).push(`"${part}" is not a status code`);
    else codes.push(n);
  }
  return codes;
}

/**
 * The API body of the form. What the form alone can tell is wrong (a header line without a
 * colon, a status that is not a number) is returned as errors by field; everything else (ranges,
 * URL rules) is the API's to judge, so its messages show next to the same fields.
 * Empty optional texts are null on update (clearing them) and left out on create.
 */
export function formToMonitorBody(values: MonitorFormValues, mode: 'create' | 'update'): { body: MonitorBody; errors: FormErrors } {
  const errors: FormErrors = {};
  const int = (field: keyof MonitorFormValues & string, text: string): number | undefined => {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    const n = Number(trimmed);
    if (!Number.isInteger(n)) {
      errors[field] = [`${field} must be a whole number`];
      return undefined;
    }
    return n;
  };
  const optionalText = (text: string): string | null | undefined => (text.trim() === '' ? (mode === 'update' ? null : undefined) : text);

  const headers = headersOf(values.headers, errors);
  const expectedStatus = statusCodesOf(values.expected_status, errors);
  const body: MonitorBody = {
    name: values.name.trim(),
    url: values.url.trim(),
    type: values.type,
    method: values.method,
    headers,
    expected_status: expectedStatus,
    follow_redirects: values.follow_redirects,
    verify_ssl: values.verify_ssl,
    tags: list(values.tags),
    locations: list(values.locations),
  };
  const numbers = {
    check_interval: int('check_interval', values.check_interval),
    timeout: int('timeout', values.timeout),
    retry_count: int('retry_count', values.retry_count),
    recovery_threshold: int('recovery_threshold', values.recovery_threshold),
  };
  for (const [k, v] of Object.entries(numbers)) if (v !== undefined) body[k as keyof typeof numbers] = v;
  // Empty turns slow-response warnings off: null on update, left out (off by default) on create.
  const slowAfter = int('response_time_threshold', values.response_time_threshold);
  if (slowAfter !== undefined) body.response_time_threshold = slowAfter;
  else if (mode === 'update' && values.response_time_threshold.trim() === '') body.response_time_threshold = null;
  if (mode === 'update' || values.depends_on.length > 0) body.depends_on = values.depends_on;
  const texts = {
    body: optionalText(values.body),
    expected_content: optionalText(values.expected_content),
    excluded_content: optionalText(values.excluded_content),
    json_path: optionalText(values.json_path),
    expected_json_value: optionalText(values.expected_json_value),
  };
  for (const [k, v] of Object.entries(texts)) if (v !== undefined) body[k as keyof typeof texts] = v;
  if (values.type === 'http') Object.assign(body, declaredBody(values, mode, errors));
  if (values.type === 'tcp') {
    for (const field of HTTP_ONLY) delete body[field];
    const send = optionalText(values.tcp_send);
    if (send !== undefined) body.tcp_send = send;
  }
  if (values.type === 'dns') {
    for (const field of [...HTTP_ONLY, ...CONNECTION_ONLY]) delete body[field];
    body.dns_record_type = values.dns_record_type as NonNullable<Schema<'Monitor'>['dns_record_type']>;
    body.dns_protocol = values.dns_protocol as NonNullable<Schema<'Monitor'>['dns_protocol']>;
    const resolver = optionalText(values.dns_resolver.trim());
    if (resolver !== undefined) body.dns_resolver = resolver;
    body.expected_dns_values = values.expected_dns_values
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  }
  if (values.type === 'ping') {
    for (const field of [...HTTP_ONLY, ...CONNECTION_ONLY]) delete body[field];
    const count = int('ping_count', values.ping_count);
    if (count !== undefined) body.ping_count = count;
  }
  return { body, errors };
}

/** The declared fields the form shows by kind, as the body gives them (an empty text: as the other texts). */
function declaredBody(values: MonitorFormValues, mode: 'create' | 'update', errors: FormErrors): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of DECLARED_FORM_FIELDS) {
    const value = values.declared[f.wire] ?? f.initial;
    if (typeof value === 'boolean') {
      body[f.wire] = value;
      continue;
    }
    const text = value.trim();
    if (text === '') {
      if (mode === 'update' && f.nullable) body[f.wire] = null;
    } else if (f.kind === 'integer') {
      const n = Number(text);
      if (Number.isInteger(n)) body[f.wire] = n;
      else errors[f.wire] = [`${f.wire} must be a whole number`];
    } else body[f.wire] = f.kind === 'text' ? value : text;
  }
  return body;
}

/** The form field an API error key belongs to (`headers.X-Api-Key` → `headers`, `tags[1]` → `tags`). */
export function fieldOfErrorKey(key: string): string {
  return key.split(/[.[]/)[0]!;
}
