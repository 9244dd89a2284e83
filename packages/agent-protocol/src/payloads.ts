import type { CheckConfig, ProbeResult } from '@uptime/probe';

/** Paths of the agent protocol, relative to the agent's registered URL. */
export const AGENT_PATHS = { check: '/v1/check', health: '/v1/health' } as const;

/** The check configuration as it travels (snake_case, like the REST API). */
export interface WireCheckConfig {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeout: number;
  follow_redirects: boolean;
  verify_ssl: boolean;
  expected_status: number[];
  expected_content: string | null;
  excluded_content: string | null;
  json_path: string | null;
  expected_json_value: string | null;
  retry_count: number;
}

/** Body of `POST /v1/check`. `request_id` is unique per request: the agent refuses a repeat. */
export interface AgentCheckRequest {
  request_id: string;
  /** For the agent's logs only. */
  monitor_id?: number;
  check: WireCheckConfig;
}

export interface WireCheckResult {
  ok: boolean;
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  checked_at: string;
  attempts: number;
}

/** Body of the agent's 200 answer to `POST /v1/check` (signed like a request). */
export interface AgentCheckResponse {
  request_id: string;
  agent_id: string;
  location: string;
  version: string;
  result: WireCheckResult;
}

/** Body of the agent's 200 answer to `GET /v1/health` (signed like a request). */
export interface AgentHealthResponse {
  status: 'ok';
  agent_id: string;
  location: string;
  version: string;
}

/** Body of every refusal (4xx/5xx) from an agent. */
export interface AgentErrorResponse {
  error: { code: string; message: string };
}

export function toWireCheck(c: CheckConfig): WireCheckConfig {
  return {
    url: c.url,
    method: c.method,
    headers: c.headers,
    body: c.body,
    timeout: c.timeout,
    follow_redirects: c.followRedirects,
    verify_ssl: c.verifySsl,
    expected_status: c.expectedStatus,
    expected_content: c.expectedContent,
    excluded_content: c.excludedContent,
    json_path: c.jsonPath,
    expected_json_value: c.expectedJsonValue,
    retry_count: c.retryCount,
  };
}

export function fromWireCheck(w: WireCheckConfig): CheckConfig {
  return {
    url: w.url,
    method: w.method,
    headers: w.headers,
    body: w.body,
    timeout: w.timeout,
    followRedirects: w.follow_redirects,
    verifySsl: w.verify_ssl,
    expectedStatus: w.expected_status,
    expectedContent: w.expected_content,
    excludedContent: w.excluded_content,
    jsonPath: w.json_path,
    expectedJsonValue: w.expected_json_value,
    retryCount: w.retry_count,
  };
}

export function toWireResult(r: ProbeResult): WireCheckResult {
  return {
    ok: r.ok,
    status_code: r.statusCode,
    response_time: r.responseTime,
    error: r.error,
    checked_at: r.checkedAt.toISOString(),
    attempts: r.attempts,
  };
}

export function fromWireResult(w: WireCheckResult): ProbeResult {
  return {
    ok: w.ok,
    statusCode: w.status_code,
    responseTime: w.response_time,
    error: w.error,
    checkedAt: new Date(w.checked_at),
    attempts: w.attempts,
  };
}
