import { ref } from '../json-schema';
import type { OperationSpec } from '../operation';

/**
 * Served before sessions, authentication and rate limits (http/ops.ts, openapi/explorer.ts).
 * `/metrics` is not here: the api serves it on its health listener only (HEALTH_HOST,
 * HEALTH_PORT; docs/operations.md), not on the port this document describes.
 */
export const OUTSIDE_OPERATIONS: OperationSpec[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getLiveness',
    tag: 'Operations',
    summary: 'Liveness',
    description: 'Always 200 while the process can answer.',
    access: 'outside',
    responses: { 200: { description: 'Alive', schema: ref('Health'), example: { status: 'ok' } } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    summary: 'Readiness: Postgres and Redis reachable',
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
    description: 'OpenAPI 3.1, generated from the definitions the API validates with. The explorer is at /api/docs.',
    access: 'outside',
    responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
    // Served after the start-up gate: 503 until the database is connected.
    errors: ['SERVICE_UNAVAILABLE'],
  },
];
