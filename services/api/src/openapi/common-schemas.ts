import { ERROR_CODES } from '@uptime/errors';
import type { Meta, Pagination } from '../http/envelope';
import { arrayOf, bool, enumOf, int, objectOf, ref, str, timestamp, type JsonSchema } from './json-schema';

type MetaFields = Pick<Meta, 'timestamp' | 'request_id'>;

/** The envelope pieces of contract §2 and §3, shared by every operation. */
export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Meta: objectOf<MetaFields>(
    {
      timestamp: timestamp({ description: 'When the answer was made' }),
      request_id: str({ description: 'Equal to the X-Request-Id header', examples: ['6f1c2a4e-0b7d-4c1e-9a57-3f0e2d8c9b11'] }),
    },
    { description: 'On every JSON answer of the API' },
  ),
  MetaWithCount: objectOf<MetaFields & { count: number }>(
    {
      timestamp: timestamp(),
      request_id: str(),
      count: int({ minimum: 0, description: 'How many notifications are active (all pages)' }),
    },
    { description: 'meta of GET /notifications/active' },
  ),
  Pagination: objectOf<Pagination>(
    {
      page: int({ minimum: 1, description: 'This page, the first is 1' }),
      limit: int({ minimum: 1, description: 'Items per page' }),
      total: int({ minimum: 0, description: 'Items on all pages' }),
      pages: int({ minimum: 0, description: 'Number of pages' }),
      has_next: bool(),
      has_prev: bool(),
    },
    { description: 'All six fields on every list (contract §2)' },
  ),
  FieldErrors: {
    type: 'object',
    description: 'VALIDATION_ERROR details: field (or `body`, or a dotted path) → messages',
    additionalProperties: arrayOf(str()),
    examples: [{ timeout: ['timeout must not be greater than 300'] }],
  },
  InvalidTypeDetails: objectOf<{ field: string; value: unknown }>(
    { field: str({ const: 'type' }), value: { description: 'The type that was sent' } },
    { description: 'INVALID_MONITOR_TYPE details' },
  ),
  RefusedAgentsDetails: objectOf<{ agent_ids: number[] }>(
    { agent_ids: arrayOf(int({ minimum: 1 }), { description: 'The agents the caller may not assign' }) },
    { description: 'INSUFFICIENT_PERMISSIONS details when assigning agents' },
  ),
  ErrorResponse: objectOf<{ error: unknown; meta: unknown }>(
    {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: enumOf(ERROR_CODES, { description: 'Stable, machine-readable (contract §3)' }),
          message: str({ description: 'For people; never a stack trace' }),
          details: { anyOf: [ref('InvalidTypeDetails'), ref('FieldErrors'), ref('RefusedAgentsDetails')] },
        },
      },
      meta: ref('Meta'),
    },
    { description: 'Every error answer (contract §3)' },
  ),
  MessageResponse: objectOf<{ message: string; meta: unknown }>({ message: str(), meta: ref('Meta') }, { description: 'An action without data' }),
};

/** Response headers, by component name. */
export const COMMON_HEADERS = {
  'X-Request-Id': {
    description: 'The request id (an incoming X-Request-Id of 8-64 safe characters is kept); equal to meta.request_id',
    required: true,
    schema: str(),
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per hour (RATE_LIMIT_PER_HOUR); absent when rate limiting is off (0)',
    schema: int({ minimum: 1 }),
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: int({ minimum: 0 }) },
  'X-RateLimit-Reset': { description: 'When the window resets, Unix time in seconds', schema: int() },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: int({ minimum: 0 }) },
  Location: { description: 'Where the redirect goes', schema: str({ format: 'uri-reference' }) },
  ETag: { description: 'Entity tag of the public read; send it back as If-None-Match for a 304', required: true, schema: str() },
  'Cache-Control': { description: 'How long a browser or proxy may keep the public read (PUBLIC_CACHE_SECONDS)', required: true, schema: str({ examples: ['public, max-age=30'] }) },
} as const;

export type HeaderName = keyof typeof COMMON_HEADERS;

export const headerRef = (name: HeaderName): { $ref: string } => ({ $ref: `#/components/headers/${name}` });

/** `{ data, meta }`. */
export const dataEnvelope = (data: JsonSchema): JsonSchema => objectOf<{ data: unknown; meta: unknown }>({ data, meta: ref('Meta') });

/** `{ data: [...], pagination, meta }`. */
export const listEnvelope = (item: JsonSchema, meta = 'Meta'): JsonSchema =>
  objectOf<{ data: unknown; pagination: unknown; meta: unknown }>({ data: arrayOf(item), pagination: ref('Pagination'), meta: ref(meta) });

/** `{ message, data, meta }` for actions that also answer the changed resource. */
export const messageEnvelope = (data: JsonSchema): JsonSchema =>
  objectOf<{ message: string; data: unknown; meta: unknown }>({ message: str(), data, meta: ref('Meta') });
