import { refusedCheckHeaderProblems } from '@uptime/probe';
import type { AgentCheckRequest, AgentCheckResponse, AgentHealthResponse, WireCheckConfig, WireCheckResult } from './payloads';

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
const METHOD = /^[A-Z]{1,10}$/;

function isHeaderMap(v: unknown): v is Record<string, string> {
  return isObject(v) && Object.keys(v).length <= 100 && Object.values(v).every(isString);
}

function isStatusList(v: unknown): v is number[] {
  return Array.isArray(v) && v.length <= 100 && v.every((s) => isInt(s, 100, 599));
}

function isHttpUrl(v: unknown): v is string {
  if (!isString(v) || v.length > 4096) return false;
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function readCheck(source: unknown, problems: string[]): WireCheckConfig | null {
  if (!isObject(source)) {
    problems.push('check: must be an object');
    return null;
  }
  const r = new Reader(source, 'check.');
  const check: WireCheckConfig = {
    url: r.field('url', isHttpUrl, 'an absolute http(s) URL'),
    method: r.field('method', (v): v is string => isString(v) && METHOD.test(v), 'an upper-case HTTP method'),
    headers: r.field('headers', isHeaderMap, 'an object of strings'),
    body: r.field('body', isNullableString, 'a string or null'),
    timeout: r.field('timeout', (v): v is number => isInt(v, 1, 300), 'an integer from 1 to 300'),
    follow_redirects: r.field('follow_redirects', (v): v is boolean => typeof v === 'boolean', 'a boolean'),
    verify_ssl: r.field('verify_ssl', (v): v is boolean => typeof v === 'boolean', 'a boolean'),
    expected_status: r.field('expected_status', isStatusList, 'an array of status codes (100-599)'),
    expected_content: r.field('expected_content', isNullableString, 'a string or null'),
    excluded_content: r.field('excluded_content', isNullableString, 'a string or null'),
    json_path: r.field('json_path', isNullableString, 'a string or null'),
    expected_json_value: r.field('expected_json_value', isNullableString, 'a string or null'),
    retry_count: r.field('retry_count', (v): v is number => isInt(v, 0, 10), 'an integer from 0 to 10'),
  };
  problems.push(...r.problems);
  // The same rule as the API's (packages/probe/src/check-headers.ts): an agent is checked by
  // many owners' monitors, so a framing header must not reach it by another route either.
  if (isHeaderMap(check.headers)) problems.push(...refusedCheckHeaderProblems(check.headers).map((p) => `check.headers: ${p}`));
  return check;
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
  problems.push(...r.problems);
  return result;
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
