import { ref } from '../json-schema';
import type { OperationSpec } from '../operation';

/**
 * Why the probes are not rate limited: a load balancer's or an orchestrator's health checks often
 * share one address with the traffic they guard (the balancer itself), so a limit that anyone can
 * spend would let a flood of requests mark every instance down. Neither reads anything a caller
 * could not learn otherwise, and /readyz costs one `SELECT 1` and one `PING`.
 */
const NOT_LIMITED =
  'Not rate limited, on purpose: load balancers and orchestrators probe it, often from the same address as the traffic they guard, and a limit others could use up would take every instance out of service.';

/**
 * The probes, served before sessions, authentication and rate limits (http/ops.ts), and the
 * document itself (openapi/explorer.ts). `/metrics` is not here: the api serves it on its health
 * listener only (HEALTH_HOST, HEALTH_PORT; docs/operations.md), not on the port this document
 * describes.
 */
export const OUTSIDE_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    tag: 'Operations',
    summary: 'Liveness',
    description: `Always 200 while the process can answer. ${NOT_LIMITED}`,
    access: 'outside',
    responses: { 200: { description: 'Alive', schema: ref('Health'), example: { status: 'ok' } } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    summary: 'Readiness: Postgres and Redis reachable',
    description: `200 once Postgres (migrated) and Redis answer, else 503 with what failed. ${NOT_LIMITED}`,
    access: 'outside',
    responses: {
      200: { description: 'Ready', schema: ref('Readiness'), example: { status: 'ready', checks: { database: { ok: true, latency_ms: 1 }, redis: { ok: true, latency_ms: 0 } } } },
      503: {
        description: 'Not ready: what failed',
        schema: ref('Readiness'),
        headers: ['Retry-After'],
        example: { status: 'unavailable', checks: { database: { ok: false, latency_ms: 2000, error: 'timeout' }, redis: { ok: true, latency_ms: 0 } } },
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    summary: 'This document',
    description:
      'OpenAPI 3.1, generated from the definitions the API validates with. The explorer is at /api/docs. No caller needed; limited per IP address like the public status pages (PUBLIC_RATE_LIMIT_PER_MINUTE), and 503 until the database is connected.',
    // No caller, and the per-IP limit of the public reads (app.ts).
    access: 'anonymous',
    responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
  },
  {
    method: 'get',
    path: '/api/v1/config.schema.json',
    operationId: 'getConfigFileSchema',
    tag: 'Operations',
    summary: 'The JSON Schema of uptime.yaml',
    description:
      'The format `uptime plan` and `uptime apply` read (docs/config-as-code.md), JSON Schema 2020-12, made of the same create bodies this document describes, with references by key instead of ids. Editors use it through a `# yaml-language-server: $schema=` line. No caller needed; limited per IP address like this document.',
    access: 'anonymous',
    responses: { 200: { description: 'The JSON Schema', schema: { type: 'object', description: 'A JSON Schema 2020-12 document' } } },
  },
];
