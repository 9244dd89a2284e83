import { CHECK_FIELDS, TYPE_CHECK_FIELDS, type CheckConfig, type CheckField, type CheckFieldValues, type DnsResult, type PingFigures, type ProbedType, type ProbeResult } from '@uptime/probe';

/** Paths of the agent protocol, relative to the agent's registered URL. */
export const AGENT_PATHS = { check: '/v1/check', health: '/v1/health' } as const;

/**
 * The check configuration as it travels: its type (absent: http, as before other types) and its
 * type's fields under the snake_case names of CHECK_FIELDS (like the REST API).
 */
export type WireCheckConfig = { type?: ProbedType } & { -readonly [F in CheckField as (typeof CHECK_FIELDS)[F]]?: CheckFieldValues[F] };

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
  /** A dns check's answer (protocol 3); absent for other types and from older agents. */
  dns?: WireDnsResult;
  /** A ping check's figures (protocol 3); absent for other types. */
  ping?: WirePingFigures | null;
}

/** A dns check's response code, answer values and lowest TTL as they travel (docs/agent-protocol.md). */
export interface WireDnsResult {
  response_code: string | null;
  values: string[];
  min_ttl: number | null;
}

/** PingFigures under snake_case names: the loss in percent, the round trips in milliseconds. */
export interface WirePingFigures {
  sent: number;
  received: number;
  packet_loss: number;
  rtt_min: number | null;
  rtt_avg: number | null;
  rtt_max: number | null;
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
  const values = c as unknown as Record<CheckField, unknown>;
  const wire: Record<string, unknown> = { type: c.type };
  for (const field of TYPE_CHECK_FIELDS[c.type]) wire[CHECK_FIELDS[field]] = values[field];
  return wire as WireCheckConfig;
}

export function fromWireCheck(w: WireCheckConfig): CheckConfig {
  const type = w.type ?? 'http';
  const wire = w as Record<string, unknown>;
  const config: Record<string, unknown> = { type };
  for (const field of TYPE_CHECK_FIELDS[type]) config[field] = wire[CHECK_FIELDS[field]];
  return config as CheckConfig;
}

export function toWireResult(r: ProbeResult): WireCheckResult {
  return {
    ok: r.ok,
    status_code: r.statusCode,
    response_time: r.responseTime,
    error: r.error,
    checked_at: r.checkedAt.toISOString(),
    attempts: r.attempts,
    ...(r.dns ? { dns: { response_code: r.dns.responseCode, values: r.dns.values, min_ttl: r.dns.minTtl } } : {}),
    ...(r.ping == null ? {} : { ping: toWirePing(r.ping) }),
  };
}

const toWirePing = (p: PingFigures): WirePingFigures => ({
  sent: p.sent,
  received: p.received,
  packet_loss: p.packetLoss,
  rtt_min: p.rttMin,
  rtt_avg: p.rttAvg,
  rtt_max: p.rttMax,
});

const fromWirePing = (w: WirePingFigures): PingFigures => ({
  sent: w.sent,
  received: w.received,
  packetLoss: w.packet_loss,
  rttMin: w.rtt_min,
  rttAvg: w.rtt_avg,
  rttMax: w.rtt_max,
});

export function fromWireResult(w: WireCheckResult): ProbeResult {
  return {
    ok: w.ok,
    statusCode: w.status_code,
    responseTime: w.response_time,
    error: w.error,
    checkedAt: new Date(w.checked_at),
    attempts: w.attempts,
    ...(w.dns ? { dns: fromWireDns(w.dns) } : {}),
    ...(w.ping == null ? {} : { ping: fromWirePing(w.ping) }),
  };
}

/** A dns check's answer as the probe's result holds it. */
export function fromWireDns(w: WireDnsResult): DnsResult {
  return { responseCode: w.response_code, values: w.values, minTtl: w.min_ttl };
}
