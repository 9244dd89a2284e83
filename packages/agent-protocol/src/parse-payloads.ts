import { DNS_VALUE_MAX_LENGTH, DNS_VALUES_MAX_ITEMS, MONITOR_TYPE_FIELDS, PROBED_TYPES, TYPE_CHECK_FIELDS, fieldProblems, isProbedType, type FieldSpec } from '@uptime/probe';
import type { AgentCheckRequest, AgentCheckResponse, AgentHealthResponse, WireCheckConfig, WireCheckResult, WireDnsResult, WirePingFigures } from './payloads';

/** A parsed payload, or every problem found in it (field → message). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const isNullableInt = (v: unknown, min: number, max: number): v is number | null => v === null || isInt(v, min, max);
/** Agent ids are integers in this service; an agent written elsewhere may send them as JSON numbers or strings. */
const isAgentId = (v: unknown): v is string | number =>
  (isString(v) && v.length > 0 && v.length <= 64) || isInt(v, 1, Number.MAX_SAFE_INTEGER);

/** Collects problems while reading fields of one object. */
class Reader {
  readonly problems: string[] = [];
  constructor(
    private readonly source: Json,
    private readonly prefix: string,
  ) {}

  field<T>(name: string, test: (v: unknown) => v is T, what: string): T {
    const value = this.source[name];
    if (!test(value)) this.problems.push(`${this.prefix}${name}: must be ${what}`);
    return value as T;
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Every declared field of the check's type (packages/probe/src/<type>/fields.ts), by the same rules as
 * the API's DTO validates a monitor's body with (fieldProblems()): an agent accepts exactly the
 * checks the API can store, services/api/test/check-fields-agree.test.ts shows it.
 */
function readCheck(source: unknown, problems: string[]): WireCheckConfig | null {
  if (!isObject(source)) {
    problems.push('check: must be an object');
    return null;
  }
  const type = source.type ?? 'http';
  if (!isProbedType(type)) {
    problems.push(`check.type: must be one of ${PROBED_TYPES.join(', ')}`);
    return null;
  }
  const check: Record<string, unknown> = { type };
  const specs: Readonly<Record<string, FieldSpec>> = MONITOR_TYPE_FIELDS[type];
  for (const field of TYPE_CHECK_FIELDS[type]) {
    const spec = specs[field]!;
    const value = source[spec.wire];
    for (const problem of fieldProblems(spec, value)) problems.push(`check.${spec.wire}: ${problem}`);
    check[spec.wire] = value;
  }
  return check as WireCheckConfig;
}

/** Reads the body of `POST /v1/check` (already JSON-parsed). */
export function parseCheckRequest(body: unknown): Parsed<AgentCheckRequest> {
  if (!isObject(body)) return { ok: false, problems: ['body: must be a JSON object'] };
  const r = new Reader(body, '');
  const requestId = r.field('request_id', (v): v is string => isString(v) && REQUEST_ID.test(v), '8-128 characters of A-Z a-z 0-9 . _ : -');
  const monitorId = body.monitor_id;
  if (monitorId !== undefined && !isInt(monitorId, 1, Number.MAX_SAFE_INTEGER)) r.problems.push('monitor_id: must be a positive integer');
  const problems = [...r.problems];
  const check = readCheck(body.check, problems);
  if (problems.length > 0 || check === null) return { ok: false, problems };
  return { ok: true, value: { request_id: requestId, ...(monitorId === undefined ? {} : { monitor_id: monitorId as number }), check } };
}

function readResult(source: unknown, problems: string[]): WireCheckResult | null {
  if (!isObject(source)) {
    problems.push('result: must be an object');
    return null;
  }
  const r = new Reader(source, 'result.');
  const result: WireCheckResult = {
    ok: r.field('ok', (v): v is boolean => typeof v === 'boolean', 'a boolean'),
    status_code: r.field('status_code', (v): v is number | null => isNullableInt(v, 100, 999), 'an HTTP status or null'),
    response_time: r.field('response_time', (v): v is number | null => isNullableInt(v, 0, 86_400_000), 'milliseconds or null'),
    error: r.field('error', isNullableString, 'a string or null'),
    checked_at: r.field('checked_at', (v): v is string => isString(v) && !Number.isNaN(Date.parse(v)), 'an ISO 8601 time'),
    attempts: r.field('attempts', (v): v is number => isInt(v, 1, 100), 'a positive integer'),
  };
  if (result.ok === false && result.error === null) r.problems.push('result.error: must say why a failed check failed');
  const ping = readPing(source.ping, r.problems);
  problems.push(...r.problems);
  if (source.dns !== undefined) {
    const dns = readDnsResult(source.dns, problems);
    if (dns !== null) result.dns = dns;
  }
  return ping === undefined ? result : { ...result, ping };
}

/** A ping check's figures (protocol 3): absent or null for other types. */
function readPing(source: unknown, problems: string[]): WirePingFigures | null | undefined {
  if (source === undefined || source === null) return source;
  if (!isObject(source)) {
    problems.push('result.ping: must be an object or null');
    return undefined;
  }
  const r = new Reader(source, 'result.ping.');
  const count = (v: unknown): v is number => isInt(v, 0, 100);
  const rtt = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
  const ping: WirePingFigures = {
    sent: r.field('sent', count, 'an integer from 0 to 100'),
    received: r.field('received', count, 'an integer from 0 to 100'),
    packet_loss: r.field('packet_loss', (v): v is number => typeof v === 'number' && v >= 0 && v <= 100, 'a percentage from 0 to 100'),
    rtt_min: r.field('rtt_min', rtt, 'milliseconds or null'),
    rtt_avg: r.field('rtt_avg', rtt, 'milliseconds or null'),
    rtt_max: r.field('rtt_max', rtt, 'milliseconds or null'),
  };
  problems.push(...r.problems);
  return ping;
}

/**
 * A dns check's answer (protocol 3), within the bounds the service stores
 * (docs/monitors.md, "DNS records"): at most 50 values of at most 255 characters.
 */
function readDnsResult(source: unknown, problems: string[]): WireDnsResult | null {
  if (!isObject(source)) {
    problems.push('result.dns: must be an object');
    return null;
  }
  const r = new Reader(source, 'result.dns.');
  const dns: WireDnsResult = {
    response_code: r.field('response_code', (v): v is string | null => v === null || (isString(v) && /^[A-Z0-9_]{1,16}$/.test(v)), 'a response code or null'),
    values: r.field(
      'values',
      (v): v is string[] => Array.isArray(v) && v.length <= DNS_VALUES_MAX_ITEMS && v.every((x) => isString(x) && x.length <= DNS_VALUE_MAX_LENGTH),
      `an array of at most ${DNS_VALUES_MAX_ITEMS} strings of at most ${DNS_VALUE_MAX_LENGTH} characters`,
    ),
    min_ttl: r.field('min_ttl', (v): v is number | null => isNullableInt(v, 0, 2_147_483_647), 'seconds or null'),
  };
  problems.push(...r.problems);
  return r.problems.length === 0 ? dns : null;
}

/** Reads an agent's 200 answer to `POST /v1/check`. */
export function parseCheckResponse(body: unknown): Parsed<AgentCheckResponse> {
  if (!isObject(body)) return { ok: false, problems: ['body: must be a JSON object'] };
  const r = new Reader(body, '');
  const value = {
    request_id: r.field('request_id', isString, 'a string'),
    agent_id: String(r.field('agent_id', isAgentId, 'the agent id')),
    location: r.field('location', isString, 'a string'),
    version: r.field('version', isString, 'a string'),
  };
  const problems = [...r.problems];
  const result = readResult(body.result, problems);
  if (problems.length > 0 || result === null) return { ok: false, problems };
  return { ok: true, value: { ...value, result } };
}

/** Reads an agent's 200 answer to `GET /v1/health`. */
export function parseHealthResponse(body: unknown): Parsed<AgentHealthResponse> {
  if (!isObject(body)) return { ok: false, problems: ['body: must be a JSON object'] };
  const r = new Reader(body, '');
  const value: AgentHealthResponse = {
    status: r.field('status', (v): v is 'ok' => v === 'ok', '"ok"'),
    agent_id: String(r.field('agent_id', isAgentId, 'the agent id')),
    location: r.field('location', isString, 'a string'),
    version: r.field('version', isString, 'a string'),
  };
  return r.problems.length > 0 ? { ok: false, problems: r.problems } : { ok: true, value };
}
