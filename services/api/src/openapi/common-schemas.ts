import { ORGANIZATION_ROLES } from '@uptime/db';
import { ERROR_CODES } from '@uptime/errors';
import { AgentIdsDto } from '../agents/agent.dto';
import type { Meta, Pagination } from '../http/envelope';
import { INCOMING_REQUEST_ID } from '../http/request-context';
import { schemaOfDto } from './dto-schema';
import { arrayOf, bool, enumOf, INT32_MAX, int, objectOf, QUERY_VALUE_MAX, ref, SAFE_INT_MAX, str, TEXT_MAX, timestamp, type JsonSchema } from './json-schema';

type MetaFields = Pick<Meta, 'timestamp' | 'request_id'>;

/** A request id: a sane incoming X-Request-Id (request-context.ts) or a UUID, which also matches. */
const requestId = (extra: Omit<JsonSchema, 'type'> = {}): JsonSchema => str({ pattern: INCOMING_REQUEST_ID.source, maxLength: 64, ...extra });
/** One message per rule of the field (or per unknown field): a field has far fewer rules. */
const FIELD_MESSAGES_MAX = 50;
/** Refused agents are among those of one request. */
const AgentIdsMax = schemaOfDto(AgentIdsDto).properties!.agent_ids!.maxItems;
const count = (description?: string): JsonSchema => int({ minimum: 0, maximum: SAFE_INT_MAX, ...(description ? { description } : {}) });
const message = (description?: string): JsonSchema => str({ maxLength: TEXT_MAX, ...(description ? { description } : {}) });

/** The envelope pieces (docs/api.md and docs/errors.md), shared by every operation. */
export const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Meta: objectOf<MetaFields>(
    {
      timestamp: timestamp({ description: 'When the answer was made' }),
      request_id: requestId({ description: 'Equal to the X-Request-Id header', examples: ['6f1c2a4e-0b7d-4c1e-9a57-3f0e2d8c9b11'] }),
    },
    { description: 'On every JSON answer of the API' },
  ),
  MetaWithCount: objectOf<MetaFields & { count: number }>(
    {
      timestamp: timestamp(),
      request_id: requestId(),
      count: count('How many notifications are active (all pages)'),
    },
    { description: 'meta of GET /notifications/active' },
  ),
  Pagination: objectOf<Pagination>(
    {
      page: int({ minimum: 1, maximum: SAFE_INT_MAX, description: 'This page, the first is 1' }),
      limit: int({ minimum: 1, maximum: SAFE_INT_MAX, description: 'Items per page' }),
      total: count('Items on all pages'),
      pages: count('Number of pages'),
      has_next: bool(),
      has_prev: bool(),
    },
    { description: 'All six fields on every list' },
  ),
  FieldErrors: {
    type: 'object',
    description: 'VALIDATION_ERROR details: field (or `body`, or a dotted path) → messages',
    additionalProperties: arrayOf(message(), { maxItems: FIELD_MESSAGES_MAX }),
    examples: [{ timeout: ['timeout must not be greater than 300'] }],
  },
  InvalidTypeDetails: objectOf<{ field: string; value: unknown }>(
    { field: str({ const: 'type' }), value: { description: 'The type that was sent' } },
    { description: 'INVALID_MONITOR_TYPE details' },
  ),
  RefusedAgentsDetails: objectOf<{ agent_ids: number[] }>(
    { agent_ids: arrayOf(int({ minimum: 1, maximum: INT32_MAX }), { maxItems: AgentIdsMax, description: 'The agents the caller may not assign' }) },
    { description: 'INSUFFICIENT_PERMISSIONS details when assigning agents' },
  ),
  RefusedRoleDetails: objectOf<{ required_role: string; role: string }>(
    {
      required_role: enumOf(ORGANIZATION_ROLES, { description: 'The least role the operation needs in the organization the request acts in' }),
      role: enumOf(ORGANIZATION_ROLES, { description: "The caller's role there" }),
    },
    { description: 'INSUFFICIENT_PERMISSIONS details when the caller\'s role is below the one the operation needs (docs/organizations.md, "Roles")' },
  ),
  RefusedScopeDetails: objectOf<{ required_scope: string; scope: string }>(
    {
      required_scope: str({ const: 'write', description: 'The scope a change needs' }),
      scope: str({ const: 'read', description: "The token's scope" }),
    },
    { description: 'INSUFFICIENT_PERMISSIONS details when a read token asks for a change (docs/organizations.md, "Tokens")' },
  ),
  ErrorResponse: objectOf<{ error: unknown; meta: unknown }>(
    {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: enumOf(ERROR_CODES, { description: 'Stable, machine-readable (docs/errors.md)' }),
          message: message('For people; never a stack trace'),
          details: { anyOf: [ref('InvalidTypeDetails'), ref('FieldErrors'), ref('RefusedAgentsDetails'), ref('RefusedRoleDetails'), ref('RefusedScopeDetails')] },
        },
      },
      meta: ref('Meta'),
    },
    { description: 'Every error answer (docs/errors.md)' },
  ),
  MessageResponse: objectOf<{ message: string; meta: unknown }>({ message: message(), meta: ref('Meta') }, { description: 'An action without data' }),
};

/** Response headers, by component name. */
export const COMMON_HEADERS = {
  'X-Request-Id': {
    description: 'The request id (an incoming X-Request-Id of 8-64 safe characters is kept); equal to meta.request_id',
    required: true,
    schema: requestId(),
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per hour (RATE_LIMIT_PER_HOUR); absent when rate limiting is off (0)',
    schema: int({ minimum: 1, maximum: SAFE_INT_MAX }),
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: count() },
  'X-RateLimit-Reset': { description: 'When the window resets, Unix time in seconds', schema: count() },
  'Retry-After': { description: 'Seconds to wait before trying again (at most the one-hour window)', schema: int({ minimum: 0, maximum: 3600 }) },
  // A redirect goes to the same URL over https (its request line is at most 16 KiB) or to a provider's sign-in page.
  Location: { description: 'Where the redirect goes', schema: str({ format: 'uri-reference', maxLength: 2 * QUERY_VALUE_MAX }) },
  ETag: { description: 'Entity tag of the public read; send it back as If-None-Match for a 304', required: true, schema: str({ maxLength: 64 }) },
  'Cache-Control': {
    description: 'How long a browser or proxy may keep the public read (PUBLIC_CACHE_SECONDS)',
    required: true,
    schema: str({ maxLength: 64, examples: ['public, max-age=30'] }),
  },
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
  objectOf<{ message: string; data: unknown; meta: unknown }>({ message: message(), data, meta: ref('Meta') });
