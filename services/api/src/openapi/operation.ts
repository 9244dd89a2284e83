import { ERROR_STATUS, type ErrorCode } from '@uptime/errors';
import { headerRef, type HeaderName } from './common-schemas';
import { needOf } from '../auth/permissions';
import { MAX_PAGE } from '../http/pagination';
import { EXAMPLE_META } from './examples';
import { enumOf, INT32_MAX, int, ref, str, TEXT_MAX, type JsonSchema } from './json-schema';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `caller` (a bearer token or a session), `session` (the session cookie only),
 * `public` (under /api/v1 without a caller: sign-in), `outside` (before the /api/v1 stack: no
 * rate limit, no body parsing, no caller: the liveness and readiness probes), `anonymous`
 * (public status pages, badges and this document: no caller, no session, no body, their own
 * per-IP limit).
 */
export type Access = 'caller' | 'session' | 'public' | 'outside' | 'anonymous';

export type Tag = 'Monitors' | 'Agents' | 'Notifications' | 'Auth' | 'Dashboard' | 'Preferences' | 'Status pages' | 'Maintenance windows' | 'Channels' | 'Live updates' | 'Operations' | 'Organizations';

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query';
  description?: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  schema?: JsonSchema;
  example?: unknown;
  /** Default application/json. */
  contentType?: string;
  headers?: HeaderName[];
}

export interface OperationSpec {
  method: HttpMethod;
  /** The full path, OpenAPI style (`/api/v1/monitors/{id}`). */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description?: string;
  access?: Access;
  parameters?: ParameterSpec[];
  /** `contentType`: default application/json (a status page's HTML forms post application/x-www-form-urlencoded). */
  body?: { schema: JsonSchema; required: boolean; description?: string; example?: unknown; contentType?: string };
  /** Success (and redirect) answers by status. */
  responses: Record<number, ResponseSpec>;
  /** Error codes this operation answers beyond those every operation of its access can. */
  errors?: ErrorCode[];
  /**
   * A capability URL: the token in the path is the credential, by necessity (a one-time sign-in
   * link opened from a terminal, a badge an `<img>` loads: neither can send a header). What it
   * grants and how to revoke it are appended to the description, which a reader of the document
   * needs before handing such a URL out. The lint's credentials-in-URL rule is lifted for these
   * paths alone, each with its reason (services/api/test/support/owasp-exceptions.cjs).
   */
  capability?: { grants: string; revoke: string };
}

/** Any request under /api/v1 may carry a body that is malformed, too large or not JSON, be rate-limited, or meet a backend outage. */
const API_ERRORS: ErrorCode[] = ['VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
const OUTSIDE_ERRORS: ErrorCode[] = ['INTERNAL_ERROR'];
/** Public reads take no body and no caller, but are rate limited (PUBLIC_RATE_LIMIT_PER_MINUTE). */
const ANONYMOUS_ERRORS: ErrorCode[] = ['RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

/** What each code means for a caller. */
const CODE_MEANING: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'invalid input: malformed JSON, an unknown field or an invalid value (details: field → messages)',
  INVALID_MONITOR_TYPE: 'a monitor type other than http (details: field, value)',
  UNAUTHORIZED: 'no caller: missing, invalid, expired or revoked token or session',
  INSUFFICIENT_PERMISSIONS: "the caller's role in the organization (named in the message and in details.required_role), or a read token, does not allow this",
  MONITOR_NOT_FOUND: "no such monitor (another user's answers the same)",
  NOTIFICATION_NOT_FOUND: "no such notification (another user's answers the same)",
  AGENT_NOT_FOUND: 'no such agent visible to the caller',
  TOKEN_NOT_FOUND: 'no such token of the caller in the organization the request acts in',
  STATUS_PAGE_NOT_FOUND: "no such status page (another user's answers the same)",
  MAINTENANCE_WINDOW_NOT_FOUND: "no such maintenance window (another user's answers the same)",
  INCIDENT_NOT_FOUND: 'no such incident on this status page',
  ORGANIZATION_NOT_FOUND: 'no such organization of which the caller is a member (X-Organization-Id or the path names it)',
  MEMBER_NOT_FOUND: 'no such member of the organization',
  INVITATION_NOT_FOUND: 'no such pending invitation of the organization',
  CHANNEL_NOT_FOUND: 'no such channel in the organization (another organization’s answers the same)',
  SUBSCRIBER_NOT_FOUND: 'no such subscriber of this status page',
  NOT_FOUND: 'unknown route or sign-in provider',
  RESOURCE_EXISTS: 'a duplicate',
  INVALID_STATE: 'not possible in the current state',
  PAYLOAD_TOO_LARGE: 'a JSON body over 1 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'a body that is not JSON',
  RATE_LIMIT_EXCEEDED: 'too many requests this hour; wait Retry-After seconds',
  INTERNAL_ERROR: 'a bug on our side (logged with the request id)',
  SERVICE_UNAVAILABLE: 'Postgres, Redis or a provider is unreachable; retry after Retry-After seconds',
};

const EXAMPLE_ERROR: Partial<Record<ErrorCode, { message: string; details?: Record<string, unknown> }>> = {
  VALIDATION_ERROR: { message: 'Invalid body: timeout', details: { timeout: ['timeout must not be greater than 300'] } },
  INVALID_MONITOR_TYPE: { message: 'Monitor type "tcp" is not supported; only "http" is', details: { field: 'type', value: 'tcp' } },
  UNAUTHORIZED: { message: 'Authentication required' },
  RATE_LIMIT_EXCEEDED: { message: 'Rate limit of 1000 requests per hour exceeded; retry in 1800 seconds' },
};

const SECURITY: Record<Access, Record<string, string[]>[]> = {
  caller: [{ bearerAuth: [] }, { sessionCookie: [] }],
  session: [{ sessionCookie: [] }],
  public: [],
  outside: [],
  anonymous: [],
};

function headersOf(names: HeaderName[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((n) => [n, headerRef(n)]));
}

/** Headers of every answer: the request id, and behind the rate limiter its three headers. */
function baseHeaders(access: Access): HeaderName[] {
  return access === 'outside' ? ['X-Request-Id'] : ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
}

/**
 * The `details` each code may carry; codes not listed carry none. A refusal names what was missing:
 * the role (permissions.ts), the write scope of a read token, or the agents one may not assign.
 */
const DETAILS: Partial<Record<ErrorCode, readonly string[]>> = {
  VALIDATION_ERROR: ['FieldErrors'],
  INVALID_MONITOR_TYPE: ['InvalidTypeDetails'],
  INSUFFICIENT_PERMISSIONS: ['RefusedRoleDetails', 'RefusedScopeDetails', 'RefusedAgentsDetails'],
};

/** The error envelope restricted to the codes of one status of one operation. */
function errorSchema(codes: ErrorCode[]): JsonSchema {
  const details = [...new Set(codes.flatMap((c) => DETAILS[c] ?? []))];
  const properties: Record<string, JsonSchema> = { code: enumOf(codes), message: str({ maxLength: TEXT_MAX }) };
  if (details.length === 1) properties.details = ref(details[0]!);
  if (details.length > 1) properties.details = { anyOf: details.map(ref) };
  return {
    type: 'object',
    required: ['error', 'meta'],
    additionalProperties: false,
    properties: {
      error: { type: 'object', required: ['code', 'message'], additionalProperties: false, properties },
      meta: ref('Meta'),
    },
  };
}

function errorResponse(status: number, codes: ErrorCode[], access: Access): Record<string, unknown> {
  const headers: HeaderName[] = [...baseHeaders(access), ...(status === 429 || status === 503 ? (['Retry-After'] as const) : [])];
  const first = codes[0]!;
  const sample = EXAMPLE_ERROR[first] ?? { message: `${CODE_MEANING[first].charAt(0).toUpperCase()}${CODE_MEANING[first].slice(1)}` };
  return {
    description: codes.map((c) => `${c}: ${CODE_MEANING[c]}`).join('; '),
    headers: headersOf(headers),
    content: {
      'application/json': {
        schema: errorSchema(codes),
        example: { error: { code: first, ...sample }, meta: EXAMPLE_META },
      },
    },
  };
}

/**
 * A list answers at most `limit` items: its `data` array takes the maximum of the operation's
 * `limit` parameter, so the two are stated once.
 */
function withPageLimit(schema: JsonSchema, parameters: readonly ParameterSpec[] | undefined): JsonSchema {
  const data = schema.properties?.data;
  const limit = parameters?.find((p) => p.in === 'query' && p.name === 'limit')?.schema.maximum;
  if (data?.type !== 'array' || data.maxItems !== undefined || limit === undefined) return schema;
  return { ...schema, properties: { ...schema.properties, data: { ...data, maxItems: limit } } };
}

function successResponse(spec: ResponseSpec, access: Access, parameters: readonly ParameterSpec[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { description: spec.description, headers: headersOf([...baseHeaders(access), ...(spec.headers ?? [])]) };
  if (spec.schema) {
    const media: Record<string, unknown> = { schema: withPageLimit(spec.schema, parameters) };
    if (spec.example !== undefined) media.example = spec.example;
    out.content = { [spec.contentType ?? 'application/json']: media };
  }
  return out;
}

/**
 * The OpenAPI Operation Object of a spec, with every error status it can answer. Error answers
 * are shared: each distinct one is put once into `sharedResponses` (components.responses) under
 * the names of its codes, and referenced.
 */
export function buildOperation(spec: OperationSpec, sharedResponses: Record<string, unknown>): Record<string, unknown> {
  const access = spec.access ?? 'caller';
  const codes = new Set<ErrorCode>([
    ...(access === 'outside' ? OUTSIDE_ERRORS : access === 'anonymous' ? ANONYMOUS_ERRORS : API_ERRORS),
    ...(access === 'caller' || access === 'session' ? (['UNAUTHORIZED'] as const) : []),
    // X-Organization-Id naming an organization the caller is not a member of, or a token asked to
    // act in another than its own (docs/organizations.md).
    ...(access === 'caller' || access === 'session' ? (['ORGANIZATION_NOT_FOUND'] as const) : []),
    // A state-changing request with a session cookie from another site (docs/security.md).
    // A role below the one the operation needs, or a read token on a write (docs/organizations.md).
    ...((access === 'caller' || access === 'session') && (spec.method !== 'get' || !['viewer', 'signed-in'].includes(needOf(spec.method, spec.path)))
      ? (['INSUFFICIENT_PERMISSIONS'] as const)
      : []),
    ...(spec.errors ?? []),
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);

  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(spec.responses)) responses[status] = successResponse(response, access, spec.parameters);
  for (const [status, list] of [...byStatus.entries()].sort(([a], [b]) => a - b)) {
    if (responses[String(status)]) throw new Error(`${spec.operationId}: ${status} is both a documented answer and the status of ${list.join(', ')}`);
    const name = [...list, ...(access === 'outside' ? ['outside'] : [])].join('.');
    sharedResponses[name] ??= errorResponse(status, list, access);
    responses[String(status)] = { $ref: `#/components/responses/${name}` };
  }

  const description = [spec.description, spec.capability && capabilityText(spec.capability)].filter(Boolean).join('\n\n');
  const operation: Record<string, unknown> = {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(description ? { description } : {}),
    security: SECURITY[access],
    // The probes are not rate limited (paths/operations.ts says why): said so for gateways.
    ...(access === 'outside' ? { 'x-rate-limited': false } : {}),
    ...(spec.capability ? { 'x-capability-url': true } : {}),
    // What the caller must be in the organization the request acts in (docs/organizations.md, "Roles").
    ...(access === 'caller' || access === 'session' ? { 'x-required-role': needOf(spec.method, spec.path) } : {}),
  };
  if (spec.parameters?.length) {
    operation.parameters = spec.parameters.map(({ required, ...p }) => ({ ...p, required: p.in === 'path' ? true : (required ?? false) }));
  }
  if (spec.body) {
    const media: Record<string, unknown> = { schema: spec.body.schema };
    if (spec.body.example !== undefined) media.example = spec.body.example;
    operation.requestBody = {
      required: spec.body.required,
      ...(spec.body.description ? { description: spec.body.description } : {}),
      content: { [spec.body.contentType ?? 'application/json']: media },
    };
  }
  operation.responses = responses;
  return operation;
}

/** The paragraph a capability URL's description ends with. */
function capabilityText({ grants, revoke }: { grants: string; revoke: string }): string {
  return `**Capability URL**: whoever has this URL can use it, without any other credential. It grants ${grants}. To revoke it: ${revoke}.`;
}

/** `{id}` of a resource: a positive 32-bit integer; anything else is that resource's 404. */
export const idParam = (what: string): ParameterSpec => ({
  name: 'id',
  in: 'path',
  description: `The ${what}'s id`,
  schema: int({ minimum: 1, maximum: INT32_MAX }),
  example: 42,
});

/** `page` and `limit` of a list (out of range is a 400: http/pagination.ts). */
export const pageParams = (defaultLimit: number, maxLimit: number): ParameterSpec[] => [
  { name: 'page', in: 'query', description: 'Page, from 1', schema: int({ minimum: 1, maximum: MAX_PAGE, default: 1 }) },
  { name: 'limit', in: 'query', description: `Items per page, 1 to ${maxLimit}`, schema: int({ minimum: 1, maximum: maxLimit, default: defaultLimit }) },
];
